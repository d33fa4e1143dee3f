// Loading a person with their unit memberships, and the capabilities that follow from them.
import { capabilitiesOf, type Capability, type GlobalRole, type UnitRole } from '../auth/capabilities.ts'
import { leaderships } from '../auth/led-units.ts'
import type { Executor } from '../db/database.ts'
import { groupBy } from '../group-by.ts'

export interface PersonInfo {
  id: number
  email: string
  name: string | null
  global_role: GlobalRole | null
  disabled: boolean
  units: { unit_id: number; slug: string; role: UnitRole; title: string | null }[]
}

/** People with their unit memberships: two queries, however many people. */
async function loadWhere(db: Executor, id: number | null) {
  let people = db.selectFrom('people').select(['id', 'email', 'name', 'global_role', 'disabled_at', 'created_at']).orderBy('email')
  if (id !== null) people = people.where('id', '=', id)
  const rows = await people.execute()
  if (!rows.length) return []
  let memberships = db
    .selectFrom('memberships')
    .innerJoin('units', 'units.id', 'memberships.unit_id')
    .select(['memberships.person_id', 'memberships.unit_id', 'units.slug', 'memberships.role', 'memberships.title'])
    .orderBy('memberships.unit_id')
  if (id !== null) memberships = memberships.where('memberships.person_id', '=', id)
  const unitsOf = groupBy(await memberships.execute(), (u) => u.person_id)
  return rows.map(({ disabled_at, ...row }) => ({
    ...row,
    disabled: disabled_at !== null,
    units: (unitsOf.get(row.id) ?? []).map(({ person_id, ...u }) => u),
  }))
}

export async function loadPerson(db: Executor, id: number): Promise<PersonInfo | null> {
  const [person] = await loadWhere(db, id)
  if (!person) return null
  const { created_at, ...info } = person
  return info
}

/** Everyone with an account (or the one with `id`), by email, with when the account was made. */
export const loadPeople = (db: Executor, id: number | null = null): Promise<(PersonInfo & { created_at: string })[]> => loadWhere(db, id)

export const personCapabilities = (p: PersonInfo): Capability[] =>
  capabilitiesOf(
    p.global_role,
    p.units.map((u) => u.role),
  )

/** Unit ids whose meeting details the person may edit: all with a global role, else the units they lead. */
export async function editableUnitIds(db: Executor, p: PersonInfo | null): Promise<number[]> {
  if (!p || p.global_role) return (await db.selectFrom('units').select('id').execute()).map((u) => u.id)
  return leaderships(p).map((u) => u.unit_id)
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase()

/** The leaders (active people with the leader role) of units, with their unit: whom the family page and unit pages name. */
export const activeLeaders = (db: Executor) =>
  db
    .selectFrom('memberships')
    .innerJoin('people', 'people.id', 'memberships.person_id')
    .innerJoin('units', 'units.id', 'memberships.unit_id')
    .where('memberships.role', '=', 'leader')
    .where('people.disabled_at', 'is', null)
