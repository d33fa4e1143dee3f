// What a credential may grant, and so whose account it may touch: the one check used by invites, invite
// revocation, role changes and reset links. It reads the credential's capabilities (a key's scopes ∩ its
// owner's), never the person's role alone.
import type { GlobalRole, UnitRole } from '../auth/capabilities.ts'
import type { Caller } from '../auth/credential.ts'
import { leadsUnit } from '../auth/led-units.ts'
import { forbidden, unprocessable } from '../errors.ts'
import type { Executor } from '../db/database.ts'

export interface UnitGrant {
  unit_id: number
  role: UnitRole
  title?: string | null
}

/** Roles as the history writes them: "admin, leader of Cub Scout Pack", or "no roles". */
export async function rolesInWords(db: Executor, globalRole: GlobalRole | null, units: UnitGrant[]): Promise<string> {
  const names = new Map((await db.selectFrom('units').select(['id', 'name']).execute()).map((u) => [u.id, u.name]))
  const unitRoles = units.map((u) => `${u.role} of ${names.get(u.unit_id) ?? 'an unknown unit'}${u.title ? ` (${u.title})` : ''}`)
  return [globalRole, ...unitRoles].filter(Boolean).join(', ') || 'no roles'
}

/** Units whose roles the caller's person may hand out: all with a global role, else the units they lead. */
function grantableUnit(caller: Caller, unitId: number): boolean {
  return leadsUnit(caller.person, unitId)
}

/**
 * 403 unless the credential may grant these roles: owner needs `people:manage` (a signed-in owner; no key
 * can hold it), admin needs `people:invite_admin`, a unit role needs `people:invite_leader` in a unit the
 * person leads (every unit for admins and owners). 422 for an unknown or repeated unit.
 */
export async function assertMayGrant(db: Executor, caller: Caller, globalRole: GlobalRole | null, units: UnitGrant[]) {
  if (!caller.person) throw forbidden('Only a person can grant roles')
  const can = (c: Parameters<typeof caller.capabilities.has>[0]) => caller.capabilities.has(c)
  if (globalRole === 'owner' && !can('people:manage')) throw forbidden('Granting owner needs a signed-in owner (people:manage)')
  if (globalRole === 'admin' && !can('people:invite_admin')) throw forbidden('Granting admin needs people:invite_admin')
  const seen = new Set<number>()
  for (const grant of units) {
    if (seen.has(grant.unit_id)) throw unprocessable(`units: unit ${grant.unit_id} is listed twice`)
    seen.add(grant.unit_id)
    const unit = await db.selectFrom('units').select('id').where('id', '=', grant.unit_id).executeTakeFirst()
    if (!unit) throw unprocessable(`units: no unit with id ${grant.unit_id}`)
    if (!can('people:invite_leader')) throw forbidden('Granting unit roles needs people:invite_leader')
    if (!grantableUnit(caller, grant.unit_id)) throw forbidden(`You can only grant roles in units you lead (unit ${grant.unit_id})`)
  }
}

/** An invite: `people:invite_leader`, and the right to grant its roles. Checked when it is issued and when it is used. */
export async function assertMayInvite(db: Executor, caller: Caller, globalRole: GlobalRole | null, units: UnitGrant[]) {
  if (!caller.capabilities.has('people:invite_leader')) throw forbidden('Invites need people:invite_leader')
  await assertMayGrant(db, caller, globalRole, units)
}

/**
 * A reset link takes over an account, so it needs `people:invite_admin` and the right to grant everything the
 * person holds: an owner's account needs `people:manage`, an admin's `people:invite_admin`, a unit role
 * `people:invite_leader` in that unit; and the person must be enabled. Checked when it is issued and when it is used.
 */
export async function assertMayReset(
  db: Executor,
  caller: Caller,
  target: { global_role: GlobalRole | null; units: { unit_id: number; role: UnitRole }[]; disabled: boolean },
) {
  if (!caller.capabilities.has('people:invite_admin')) throw forbidden('Reset links need people:invite_admin')
  await assertMayGrant(db, caller, target.global_role, target.units)
  if (target.disabled) throw forbidden('This person is disabled; enable them first')
}

const GLOBAL_RANK = { admin: 1, owner: 2 } as const
const UNIT_RANK = { member: 1, leader: 2 } as const

export interface Roles {
  global_role: GlobalRole | null
  units: { unit_id: number; role: UnitRole }[]
}

/** True when `a` holds a role `b` does not: another unit's role, or a higher one (owner over admin, leader over member). */
export function holdsMore(a: Roles, b: Roles): boolean {
  const rankOf = (roles: Roles, unitId: number) => {
    const held = roles.units.find((u) => u.unit_id === unitId)
    return held ? UNIT_RANK[held.role] : 0
  }
  if (a.global_role && GLOBAL_RANK[a.global_role] > (b.global_role ? GLOBAL_RANK[b.global_role] : 0)) return true
  return a.units.some((u) => UNIT_RANK[u.role] > rankOf(b, u.unit_id))
}
