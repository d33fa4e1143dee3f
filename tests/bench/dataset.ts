// Fills a fresh database for the benchmarks at a size: 1× is 300 households (with 450 scouts), 1,000 leads,
// 10,000 history entries and 100 family accounts; 10× and 100× multiply those (100×: 30,000 households,
// 100,000 leads, 1,000,000 history entries). Always 2 units, 200 announcements, 100 nearby units and the
// people the runs sign in as. It ends with the nightly tidy-up, as the data of a unit running for years would have had.
import { newKeySecret, sha256 } from '../../server/auth/tokens.ts'
import type { Db } from '../../server/db/client.ts'
import { tidyDatabase } from '../../server/ops/tidy.ts'
import { createAccount } from '../../server/people/accounts.ts'
import { hashPassword } from '../../server/auth/passwords.ts'

export const BENCH_PASSWORD = 'benchmark password'
const NAMES = ['Smith', 'Garcia', 'Nguyen', 'Johnson', 'Patel', 'Kim', 'Lopez', 'Brown', 'Davis', 'Miller']

/** The counts of one size, for the tables. */
export const sizeOf = (scale: number) => ({ households: 300 * scale, leads: 1000 * scale, history: 10_000 * scale, families: 100 * scale })

export async function fillDataset(db: Db, scale = 1, leaders = 20) {
  const size = sizeOf(scale)
  const now = Date.now()
  const iso = (ms: number) => new Date(ms).toISOString()
  const password_hash = await hashPassword(BENCH_PASSWORD)
  const owner = await db
    .transaction()
    .execute((trx) => createAccount(trx, { email: 'owner@bench.example', name: null, password_hash, global_role: 'owner', units: [] }))
  const leaderEmails: string[] = []
  for (let i = 0; i < leaders; i++) {
    const email = `leader${i}@bench.example`
    await db.transaction().execute((trx) =>
      createAccount(trx, {
        email,
        name: null,
        password_hash,
        global_role: null,
        units: [{ unit_id: 1 + (i % 2), role: 'leader' }],
      }),
    )
    leaderEmails.push(email)
  }
  const key = newKeySecret()
  await db
    .insertInto('api_keys')
    .values({
      person_id: owner,
      label: 'bench',
      scopes: JSON.stringify(['leads:read']),
      token_hash: sha256(key),
      hint: key.slice(5, 9),
      created_at: iso(now),
    })
    .execute()

  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < size.leads; i += 500) {
      await trx
        .insertInto('leads')
        .values(
          Array.from({ length: 500 }, (_, j) => {
            const n = i + j
            return {
              created_at: iso(now - n * 60_000),
              parent_name: `Parent ${NAMES[n % NAMES.length]} ${n}`,
              email: `parent${n}@families.example`,
              phone: `555-${String(1000 + (n % 9000)).padStart(4, '0')}`,
              unit: (['pack', 'troop', 'unsure'] as const)[n % 3],
              message: n % 4 ? null : 'We moved here in the summer and our son wants to camp',
              scout_name: null,
              scout_grade: null,
            }
          }),
        )
        .execute()
    }
    for (let i = 0; i < size.households; i += 500) {
      const ids = await trx
        .insertInto('households')
        .values(
          Array.from({ length: 500 }, (_, j) => ({
            parent_name: `Household ${NAMES[(i + j) % NAMES.length]} ${i + j}`,
            email: `home${i + j}@families.example`,
            active: 1,
            created_at: iso(now),
            updated_at: iso(now),
          })),
        )
        .returning('id')
        .execute()
      // One scout in every household, a second in every other one.
      const scouts = ids.flatMap(({ id }, j) => (j % 2 ? [id, id] : [id]))
      await trx
        .insertInto('scouts')
        .values(
          scouts.map((household_id, k) => ({
            household_id,
            first_name: `Scout${i + k}`,
            unit_id: 1 + (k % 2),
            den: `Den ${k % 6}`,
            created_at: iso(now),
            updated_at: iso(now),
          })),
        )
        .execute()
    }
    // Family accounts share the owner's password hash: hashing each one would take longer than the runs.
    const { password_hash } = await trx.selectFrom('people').select('password_hash').where('id', '=', owner).executeTakeFirstOrThrow()
    for (let i = 0; i < size.families; i += 500)
      await trx
        .insertInto('people')
        .values(
          Array.from({ length: Math.min(500, size.families - i) }, (_, j) => ({
            email: `family${i + j}@families.example`,
            name: null,
            password_hash,
            global_role: null,
            created_at: iso(now),
          })),
        )
        .execute()
    await trx
      .insertInto('announcements')
      .values(
        Array.from({ length: 200 }, (_, i) => ({
          message: `Announcement ${i}`,
          starts_at: iso(now - (200 - i) * 86_400_000),
          ends_at: iso(now + (i < 197 ? -1 : 30) * 86_400_000),
          created_at: iso(now - (200 - i) * 86_400_000),
          created_by: 'owner@bench.example',
          revoked_at: null,
        })),
      )
      .execute()
    await trx
      .insertInto('nearby_units')
      .values(
        Array.from({ length: 100 }, (_, i) => ({
          name: `Nearby unit ${i}`,
          unit_type: (['pack', 'troop', 'crew', 'ship', 'post'] as const)[i % 5],
          town: `Town ${i % 12}`,
          active: i % 10 ? 1 : 0,
          created_at: iso(now),
          updated_at: iso(now),
        })),
      )
      .execute()
    for (let i = 0; i < size.history; i += 1000)
      await trx
        .insertInto('action_log')
        .values(
          Array.from({ length: 1000 }, (_, j) => ({
            at: iso(now - (i + j) * 30_000),
            kind: ['leads.claim', 'nearby.update', 'login.success'][j % 3],
            actor: 'owner@bench.example',
            summary: `Bench entry ${i + j}`,
          })),
        )
        .execute()
  })
  // As after the nightly run: the data of a unit that has run for years has been through it many times.
  await tidyDatabase(db)
  return { key, leaderEmails }
}
