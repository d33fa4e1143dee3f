// Which households an account belongs to: the family page and replies to events both answer for these only.
import type { Caller } from '../auth/credential.ts'
import type { Executor } from '../db/database.ts'

/** The ids of the active households a person's account is linked to (none without a person). */
export async function ownHouseholdIds(db: Executor, caller: Caller): Promise<number[]> {
  if (!caller.person) return []
  const rows = await db
    .selectFrom('household_people')
    .innerJoin('households', 'households.id', 'household_people.household_id')
    .select('households.id')
    .where('household_people.person_id', '=', caller.person.id)
    .where('households.active', '=', 1)
    .execute()
  return rows.map((r) => r.id)
}
