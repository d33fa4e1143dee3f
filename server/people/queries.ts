// Loading a person with their unit memberships, and the capabilities that follow from them.
import { capabilitiesOf, type Capability, type GlobalRole } from '../auth/capabilities.ts'
import type { Executor } from '../history/record.ts'

export interface PersonInfo {
  id: number
  email: string
  name: string | null
  global_role: GlobalRole | null
  disabled: boolean
  units: { unit_id: number; slug: string; role: 'member' | 'leader'; title: string | null }[]
}

export async function loadPerson(db: Executor, id: number): Promise<PersonInfo | null> {
  const row = await db
    .selectFrom('people')
    .select(['id', 'email', 'name', 'global_role', 'disabled_at'])
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) return null
  const units = await db
    .selectFrom('memberships')
    .innerJoin('units', 'units.id', 'memberships.unit_id')
    .select(['memberships.unit_id', 'units.slug', 'memberships.role', 'memberships.title'])
    .where('memberships.person_id', '=', id)
    .orderBy('memberships.unit_id')
    .execute()
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    global_role: row.global_role,
    disabled: row.disabled_at !== null,
    units,
  }
}

export const personCapabilities = (p: PersonInfo): Capability[] =>
  capabilitiesOf(
    p.global_role,
    p.units.map((u) => u.role),
  )

/** Unit ids whose meeting details the person may edit: all with a global role, else the units they lead. */
export async function editableUnitIds(db: Executor, p: PersonInfo | null): Promise<number[]> {
  if (!p || p.global_role) return (await db.selectFrom('units').select('id').execute()).map((u) => u.id)
  return p.units.filter((u) => u.role === 'leader').map((u) => u.unit_id)
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase()
