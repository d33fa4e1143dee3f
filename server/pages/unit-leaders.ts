// The leaders a unit's public page names: active people who lead it, with their title, and their email only when they
// chose to show it (the account page). Never a scout, never a family.
import type { Executor } from '../db/database.ts'
import { activeLeaders } from '../people/queries.ts'

export async function unitLeaders(db: Executor, unit: 'pack' | 'troop') {
  const rows = await activeLeaders(db)
    .select(['people.name', 'people.email', 'people.show_email', 'memberships.title'])
    .where('units.slug', '=', unit)
    // A leader without a name is left out: the page never names someone by their address alone.
    .where('people.name', 'is not', null)
    .orderBy('people.name')
    .execute()
  return rows.map((r) => ({ name: r.name!, title: r.title, email: r.show_email === 1 ? r.email : null }))
}
