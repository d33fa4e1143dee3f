// Creating an account (from an invite or the first-owner setup), signed in straight away. The caller hashes the
// password before its transaction: hashing takes tens of milliseconds, and the write would hold the database meanwhile.
import type { GlobalRole } from '../auth/capabilities.ts'
import { conflict } from '../errors.ts'
import type { Executor } from '../db/database.ts'
import { nowIso } from '../schemas.ts'
import type { UnitGrant } from './grants.ts'
import { syncAsked } from '../auth/second-factor-policy.ts'

interface NewAccount {
  email: string
  name: string | null
  password_hash: string
  global_role: GlobalRole | null
  units: UnitGrant[]
}

/** Inserts the person and memberships; returns the person id. Run inside the caller's transaction. */
export async function createAccount(trx: Executor, account: NewAccount): Promise<number> {
  const taken = await trx.selectFrom('people').select('id').where('email', '=', account.email).executeTakeFirst()
  if (taken) throw conflict('A person with this email already has an account')
  const person = await trx
    .insertInto('people')
    .values({
      email: account.email,
      name: account.name,
      password_hash: account.password_hash,
      global_role: account.global_role,
      created_at: nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  for (const u of account.units)
    await trx
      .insertInto('memberships')
      .values({ person_id: person.id, unit_id: u.unit_id, role: u.role, title: u.title ?? null })
      .execute()
  await syncAsked(trx, person.id)
  return person.id
}
