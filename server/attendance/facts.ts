// What attendance rows count for, many at once: each row's event (or occurrence of a repeating one) read from the
// local copy of the calendar, each stored resource parsed once however many of its meetings a scout came to.
import { sql } from 'kysely'
import type { Executor } from '../db/database.ts'
import { allOccurrences, type EventKind, type Occurrence } from '../calendar/event.ts'
import { addDays } from '../calendar/zone.ts'
import { getSetting } from '../settings/registry.ts'
import { parseAttendanceKey } from './occurrence.ts'

/** An attended event as logs and reports see it; an event the calendar no longer holds counts for nothing. */
export interface Attended {
  /** The attendance key: the event's uid, `<uid>#<date>` for one meeting of a repeating event. */
  uid: string
  title: string
  date: string
  end?: string
  location?: string
  unit: 'pack' | 'troop' | 'both' | null
  kind: EventKind | null
  nights: number
  service_hours: number
  miles: number
  /** false when the calendar no longer holds the event: its date is the one its key or the tick gave. */
  in_calendar: boolean
}

export const REMOVED_TITLE = 'An event no longer in the calendar'

/** The event each attendance key names, with `recordedAt` (the tick's instant) dating one the calendar dropped. */
export async function attendedEvents(db: Executor, rows: { event_uid: string; recorded_at: string }[]): Promise<Map<string, Attended>> {
  const keys = [...new Map(rows.map((r) => [r.event_uid, r.recorded_at])).entries()]
  const uids = [...new Set(keys.flatMap(([key]) => [key, parseAttendanceKey(key).uid]))]
  // The uids as one JSON parameter: years of weekly meetings would pass SQLite's limit on parameters.
  const objects = uids.length
    ? await db
        .selectFrom('calendar_objects')
        .select(['uid', 'ics'])
        .where('uid', 'in', sql<string>`(select value from json_each(${JSON.stringify(uids)}))`)
        .execute()
    : []
  const timeZone = await getSetting(db, 'site.timezone')
  const parsed = new Map(objects.map((o) => [o.uid, occurrencesOf(o.ics, timeZone)]))
  const out = new Map<string, Attended>()
  for (const [key, recordedAt] of keys) {
    const whole = parsed.get(key)?.find((o) => !o.recurring)
    const { uid, date } = parseAttendanceKey(key)
    const found = whole ?? (date ? parsed.get(uid)?.find((o) => o.recurring && o.date === date) : undefined)
    out.set(key, found ? attended(key, found) : removed(key, date ?? recordedAt.slice(0, 10)))
  }
  return out
}

function occurrencesOf(ics: string, timeZone: string): Occurrence[] {
  try {
    return allOccurrences(ics, timeZone)
  } catch {
    return [] // a resource another client wrote that is not valid iCalendar
  }
}

const attended = (key: string, o: Occurrence): Attended => ({
  uid: key,
  title: o.title,
  date: o.date,
  ...(o.end ? { end: o.end } : {}),
  ...(o.location ? { location: o.location } : {}),
  unit: o.unit,
  kind: o.kind ?? null,
  nights: o.nights ?? 0,
  service_hours: o.service_hours ?? 0,
  miles: o.miles ?? 0,
  in_calendar: true,
})

const removed = (key: string, date: string): Attended => ({
  uid: key,
  title: REMOVED_TITLE,
  date,
  unit: null,
  kind: null,
  nights: 0,
  service_hours: 0,
  miles: 0,
  in_calendar: false,
})

/** Hours and miles added up without floating-point dust (0.1 + 0.2 is 0.3). */
export const sum = (values: number[]) => Math.round(values.reduce((a, b) => a + b, 0) * 100) / 100

/** The scouts who came to anything dated from `day` on: the roster's `inactive_weeks` keeps the others. */
export async function scoutsSeenSince(db: Executor, day: string): Promise<Set<number>> {
  // A tick is never taken before its event starts, so a present row for an event on `day` or later was recorded after
  // the eve of `day` (the day before allows for the site's time zone).
  const rows = await db
    .selectFrom('attendance')
    .select(['event_uid', 'scout_id', 'recorded_at'])
    .where('present', '=', 1)
    .where('recorded_at', '>=', addDays(day, -1))
    .execute()
  const events = await attendedEvents(db, rows)
  return new Set(rows.filter((r) => events.get(r.event_uid)!.date >= day).map((r) => r.scout_id))
}
