// Active status: per scout, the meetings of their unit held in a period and how many they came to, the other events
// they came to, and the last day they came to anything.
import type { Caller } from '../auth/credential.ts'
import { ledUnits } from '../auth/led-units.ts'
import type { Executor } from '../db/database.ts'
import { forbidden, notFound, unprocessable } from '../errors.ts'
import { programYear } from '../roster/queries.ts'
import { today } from '../settings/registry.ts'
import { findUnit } from '../units/units.ts'
import { goesBy } from '../words.ts'
import { attendedEvents } from './facts.ts'
import { programYearDays } from './log.ts'
import type { AttendanceReportQuery } from './log-schemas.ts'

/**
 * GET /api/admin/roster/attendance: the scouts of active households in `unit` (404 unknown, 403 one the caller does
 * not lead), or in every unit the caller leads. A meeting counts as held for a unit once attendance was taken at it for
 * that unit's scouts (present or not): a meeting nobody took attendance at says nothing about who came.
 */
export async function attendanceReport(db: Executor, caller: Caller, query: typeof AttendanceReportQuery.static) {
  const led = ledUnits(caller)
  const unit = query.unit ? await findUnit(db, query.unit) : null
  if (query.unit && !unit) throw notFound(`No unit ${query.unit}`)
  if (unit && led && !led.has(unit.id)) throw forbidden(`unit: you do not lead the ${unit.slug}`, 'unit_out_of_scope')
  const from = query.from ?? (await programYearDays(db, (await programYear(db)).year)).from
  const to = query.to ?? (await today(db))
  if (to < from) throw unprocessable('to: must not be before from')
  const scouts = await db
    .selectFrom('scouts')
    .innerJoin('households', 'households.id', 'scouts.household_id')
    .innerJoin('units', 'units.id', 'scouts.unit_id')
    .select(['scouts.id', 'first_name', 'last_name', 'preferred_name', 'den', 'unit_id', 'units.slug'])
    .where('households.active', '=', 1)
    .$if(!!unit, (q) => q.where('scouts.unit_id', '=', unit!.id))
    .$if(!unit && !!led, (q) => q.where('scouts.unit_id', 'in', [0, ...led!]))
    .execute()
  const rows = await db.selectFrom('attendance').select(['event_uid', 'scout_id', 'present', 'unit', 'recorded_at']).execute()
  const events = await attendedEvents(db, rows)
  const inPeriod = (key: string) => {
    const e = events.get(key)!
    return e.date >= from && e.date <= to
  }
  // Held for a unit: a meeting in the period at which any of that unit's scouts was marked (a meeting of both units
  // where only the pack's leaders took attendance was not held for the troop, as far as anyone knows).
  const held = new Map<string, Set<string>>([
    ['pack', new Set()],
    ['troop', new Set()],
  ])
  for (const r of rows) if (events.get(r.event_uid)!.kind === 'meeting' && inPeriod(r.event_uid)) held.get(r.unit)?.add(r.event_uid)
  const cameBy = new Map<number, string[]>()
  for (const r of rows) if (r.present === 1) cameBy.set(r.scout_id, [...(cameBy.get(r.scout_id) ?? []), r.event_uid])
  const answer = scouts.map((sc) => {
    const came = cameBy.get(sc.id) ?? []
    const meetings = held.get(sc.slug)!
    const attended = came.filter((k) => meetings.has(k)).length
    const others = came.filter((k) => events.get(k)!.kind !== 'meeting' && inPeriod(k)).length
    const last =
      came
        .map((k) => events.get(k)!.date)
        .sort()
        .at(-1) ?? null
    return {
      scout_id: sc.id,
      name: goesBy(sc),
      unit: sc.slug,
      den: sc.den,
      meetings_held: meetings.size,
      meetings_attended: attended,
      events_attended: others,
      share: meetings.size ? Math.round((attended / meetings.size) * 100) / 100 : null,
      last_attended: last,
    }
  })
  answer.sort((a, b) => a.unit.localeCompare(b.unit) || a.name.localeCompare(b.name) || a.scout_id - b.scout_id)
  return { from, to, scouts: answer }
}
