// Each scout's log: the events the scout came to, newest first, with what each counted for, and the totals for this
// program year and for all time. Attendance is kept by scout, with the unit of the day, so a scout who moved from the
// pack to the troop keeps the pack's nights.
import { sql } from 'kysely'
import type { Caller } from '../auth/credential.ts'
import { ledUnits } from '../auth/led-units.ts'
import type { Executor } from '../db/database.ts'
import { forbidden, notFound } from '../errors.ts'
import { groupBy } from '../group-by.ts'
import { ownHouseholdIds } from '../roster/own-households.ts'
import { programYear } from '../roster/queries.ts'
import { getSetting } from '../settings/registry.ts'
import { type Attended, attendedEvents, sum } from './facts.ts'

/** The first day of program year `year` and of the one after it (setting roster.year_start_month). */
export async function programYearDays(db: Executor, year: number) {
  const month = String(await getSetting(db, 'roster.year_start_month')).padStart(2, '0')
  return { from: `${year}-${month}-01`, until: `${year + 1}-${month}-01` }
}

const totalsOf = (entries: Omit<Attended, 'unit'>[]) => ({
  nights: entries.reduce((n, e) => n + e.nights, 0),
  service_hours: sum(entries.map((e) => e.service_hours)),
  miles: sum(entries.map((e) => e.miles)),
  meetings: entries.filter((e) => e.kind === 'meeting').length,
})

/** The logs of these scouts (present ticks only), by scout id; a scout with none has an empty log. */
export async function scoutLogs(db: Executor, scoutIds: number[]) {
  const rows = scoutIds.length
    ? await db
        .selectFrom('attendance')
        .select(['event_uid', 'scout_id', 'unit', 'recorded_at'])
        // One JSON parameter: a whole roster's ids (the export) would pass SQLite's limit on parameters.
        .where('scout_id', 'in', sql<number>`(select value from json_each(${JSON.stringify(scoutIds)}))`)
        .where('present', '=', 1)
        .execute()
    : []
  const events = await attendedEvents(db, rows)
  const { from, until } = await programYearDays(db, (await programYear(db)).year)
  const byScout = groupBy(rows, (r) => r.scout_id)
  return new Map(
    scoutIds.map((id) => {
      const entries = (byScout.get(id) ?? [])
        .map((r) => ({ ...events.get(r.event_uid)!, unit: r.unit }))
        .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : a.title.localeCompare(b.title)))
      const thisYear = entries.filter((e) => e.date >= from && e.date < until)
      const log = {
        scout_id: id,
        entries: entries.map(({ in_calendar, location, ...e }) => e),
        totals: { program_year: totalsOf(thisYear), all_time: totalsOf(entries) },
      }
      return [id, log]
    }),
  )
}

/**
 * GET /api/admin/roster/scouts/{id}/log: for the scout's own household, and for leaders of the unit the scout is in
 * now (admins: every unit). 404 for no such scout and for a family asking about another household's scout; 403 for
 * a leader of another unit.
 */
export async function scoutLog(db: Executor, caller: Caller, id: number) {
  const scout = await db.selectFrom('scouts').select(['id', 'household_id', 'unit_id']).where('id', '=', id).executeTakeFirst()
  if (!scout) throw notFound('No such scout')
  const own = (await ownHouseholdIds(db, caller)).includes(scout.household_id)
  const led = ledUnits(caller)
  if (!own && led && !led.has(scout.unit_id)) {
    if (caller.capabilities.has('roster:write')) throw forbidden('This scout is in a unit you do not lead', 'unit_out_of_scope')
    throw notFound('No such scout of yours')
  }
  return (await scoutLogs(db, [id])).get(id)!
}
