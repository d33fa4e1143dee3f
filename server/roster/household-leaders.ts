// Whom a family asks: the leaders of the units its scouts are in.
import type { Executor } from '../db/database.ts'
import { activeLeaders } from '../people/queries.ts'

/** The leaders (not disabled) of the units the households' scouts are in, by unit and name. */
export async function householdLeaders(db: Executor, householdIds: number[]) {
  if (!householdIds.length) return []
  return activeLeaders(db)
    .select((eb) => [eb.fn.coalesce('people.name', 'people.email').as('name'), 'memberships.title', 'people.email', 'units.name as unit'])
    .where('memberships.unit_id', 'in', (eb) =>
      eb.selectFrom('scouts').select('scouts.unit_id').where('scouts.household_id', 'in', householdIds),
    )
    .orderBy('units.id')
    .orderBy('name')
    .execute()
}
