// Grants are limited to what the caller holds: the one check used by invites and role changes.
import type { Caller } from '../auth/credential.ts'
import { forbidden, unprocessable } from '../errors.ts'
import type { Executor } from '../history/record.ts'

export interface UnitGrant {
  unit_id: number
  role: 'member' | 'leader'
  title?: string | null
}

export async function assertMayGrant(db: Executor, caller: Caller, globalRole: 'owner' | 'admin' | null, units: UnitGrant[]) {
  const me = caller.person
  if (!me) throw forbidden('Only a person can grant roles')
  if (globalRole === 'owner' && me.global_role !== 'owner') throw forbidden('Only an owner may grant owner')
  if (globalRole === 'admin' && !caller.capabilities.has('people:invite_admin')) throw forbidden('Only an admin or owner may grant admin')
  const seen = new Set<number>()
  for (const grant of units) {
    if (seen.has(grant.unit_id)) throw unprocessable(`units: unit ${grant.unit_id} is listed twice`)
    seen.add(grant.unit_id)
    const unit = await db.selectFrom('units').select('id').where('id', '=', grant.unit_id).executeTakeFirst()
    if (!unit) throw unprocessable(`units: no unit with id ${grant.unit_id}`)
    const leads = me.units.some((u) => u.unit_id === grant.unit_id && u.role === 'leader')
    if (!me.global_role && !leads) throw forbidden(`You can only grant roles in units you lead (unit ${grant.unit_id})`)
  }
}
