// Who must have a second factor (setting security.second_factor: optional, admins, or leaders too), since when,
// and what that means for a session: 14 days to add one with a banner on every admin page, then only the account
// page until they do.
import { leadsAUnit } from './led-units.ts'
import type { GlobalRole, UnitRole } from './capabilities.ts'
import type { Executor } from '../db/database.ts'
import { getSetting } from '../settings/registry.ts'

export const SECOND_FACTOR_POLICIES = ['optional', 'admins', 'leaders'] as const
export type SecondFactorPolicy = (typeof SECOND_FACTOR_POLICIES)[number]

/** Days a person the policy newly asks may still sign in without a second factor. */
export const GRACE_DAYS = 14
const DAY = 86_400_000

interface Roles {
  global_role: GlobalRole | null
  units: { role: UnitRole }[]
}

/** Whether the policy asks this person for a second factor. */
export function asks(policy: SecondFactorPolicy, person: Roles): boolean {
  if (policy === 'optional') return false
  if (person.global_role !== null) return true
  return policy === 'leaders' && leadsAUnit(person)
}

/**
 * Brings every person's `second_factor_asked_since` in line with the policy and their roles (or only `personId`'s):
 * set to now for someone it starts asking, cleared for someone it no longer asks. Run in the transaction of any
 * change of the setting or of roles, so the 14 days count from when the asking started.
 */
export async function syncAsked(trx: Executor, personId?: number): Promise<void> {
  const policy = await getSetting(trx, 'security.second_factor')
  let people = trx.selectFrom('people').select(['id', 'global_role', 'second_factor_asked_since'])
  if (personId !== undefined) people = people.where('id', '=', personId)
  const rows = await people.execute()
  let memberships = trx.selectFrom('memberships').select(['person_id', 'role']).where('role', '=', 'leader')
  if (personId !== undefined) memberships = memberships.where('person_id', '=', personId)
  const leaders = new Set((await memberships.execute()).map((m) => m.person_id))
  const now = new Date().toISOString()
  for (const row of rows) {
    const asked = asks(policy, { global_role: row.global_role, units: leaders.has(row.id) ? [{ role: 'leader' }] : [] })
    if (asked === (row.second_factor_asked_since !== null)) continue
    await trx
      .updateTable('people')
      .set({ second_factor_asked_since: asked ? now : null })
      .where('id', '=', row.id)
      .execute()
  }
}

/** What the policy means for a person now: asked or not, by when, and whether only the account page is open to them. */
export interface SecondFactorStatus {
  /** The person has an authenticator app or a passkey. */
  enrolled: boolean
  /** The setting asks them for one. */
  required: boolean
  /** Until when they may sign in without one (null when not asked, or enrolled). */
  due_at: string | null
  /** Past that day without one: their sessions reach only the account page. */
  locked: boolean
}

export function statusOf(askedSince: string | null, enrolled: boolean, now = Date.now()): SecondFactorStatus {
  const due = askedSince && !enrolled ? Date.parse(askedSince) + GRACE_DAYS * DAY : null
  return {
    enrolled,
    required: askedSince !== null,
    due_at: due === null ? null : new Date(due).toISOString(),
    locked: due !== null && now >= due,
  }
}

/**
 * A person's status, read from the database. The setting decides whether they are asked even when it was changed by
 * hand (no sync ran): asked by it but not yet marked, they are asked from now; no longer asked, they are not.
 */
export async function secondFactorStatus(db: Executor, person: { id: number } & Roles): Promise<SecondFactorStatus> {
  const policy = await getSetting(db, 'security.second_factor')
  const row = await db.selectFrom('people').select('second_factor_asked_since').where('id', '=', person.id).executeTakeFirstOrThrow()
  let askedSince = asks(policy, person) ? row.second_factor_asked_since : null
  if (asks(policy, person) && askedSince === null) {
    askedSince = new Date().toISOString()
    // Bookkeeping for a change made outside the service, like a session's last use: not an action of anyone's.
    await db
      .updateTable('people')
      .set({ second_factor_asked_since: askedSince })
      .where('id', '=', person.id)
      .where('second_factor_asked_since', 'is', null)
      .execute()
  }
  const factor = await db
    .selectFrom('second_factors')
    .select('id')
    .where('person_id', '=', person.id)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirst()
  return statusOf(askedSince, factor !== undefined)
}
