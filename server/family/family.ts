// The family page: what a signed-in family sees of the roster (their own active households and scouts, without
// leaders' notes) and of the calendar (upcoming events asking for replies, with their replies), each scout's log of
// the events they came to, and whom to ask.
import type { Caller } from '../auth/credential.ts'
import type { Executor } from '../db/database.ts'
import { scoutLogs } from '../attendance/log.ts'
import { familyRsvps } from '../calendar/rsvp.ts'
import { householdLeaders } from '../roster/household-leaders.ts'
import { ownHouseholdIds } from '../roster/own-households.ts'
import { householdsView, programYear } from '../roster/queries.ts'

/** A household as its own family sees it: without leaders' notes, the lead it came from or the roster's sort name. */
export const familyView = ({ notes, lead_id, sort_name, ...h }: Awaited<ReturnType<typeof householdsView>>[number]) => h

/** The signed-in person's own active households, and the leaders of their scouts' units. */
export async function family(db: Executor, caller: Caller) {
  const ids = await ownHouseholdIds(db, caller)
  const year = await programYear(db)
  const households = (await householdsView(db, ids, year.year)).map(familyView)
  const logs = await scoutLogs(
    db,
    households.flatMap((h) => h.scouts.map((s) => s.id)),
  )
  return {
    year,
    households,
    events: ids.length ? await familyRsvps(db, ids) : [],
    leaders: await householdLeaders(db, ids),
    logs: [...logs.values()],
  }
}
