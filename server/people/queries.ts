// Reads about people beside who a person is (auth/person.ts): the units they may edit, the leaders pages name.
import type { PersonInfo } from '../auth/person.ts'
import { leaderships } from '../auth/led-units.ts'
import type { Executor } from '../db/database.ts'

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
