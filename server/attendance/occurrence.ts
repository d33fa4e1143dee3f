// Which event attendance belongs to. A one-time event is its uid; one occurrence of a repeating event (a weekly
// meeting) is `<uid>#<date>`, its day in the site's time zone, so each meeting has its own attendance.
import type { Executor } from '../db/database.ts'
import { allOccurrences, type EventKind, firstOccurrence, type Occurrence } from '../calendar/event.ts'
import { getSetting } from '../settings/registry.ts'

const KEY = /^(.+)#(\d{4}-\d{2}-\d{2})$/

/** The attendance key of an event, or of one occurrence of a repeating event. */
export const attendanceKey = (uid: string, date?: string) => (date ? `${uid}#${date}` : uid)

/** The uid and occurrence day an attendance key names (no date for a one-time event). */
export function parseAttendanceKey(key: string): { uid: string; date?: string } {
  const match = KEY.exec(key)
  return match ? { uid: match[1]!, date: match[2]! } : { uid: key }
}

/**
 * The occurrence an attendance key names, as the local copy of the calendar holds it: a one-time event itself, or
 * the repeating event's occurrence on that day; null when the calendar no longer holds it.
 */
export async function occurrenceOf(db: Executor, key: string): Promise<Occurrence | null> {
  const timeZone = await getSetting(db, 'site.timezone')
  const find = async (uid: string) => (await db.selectFrom('calendar_objects').select('ics').where('uid', '=', uid).executeTakeFirst())?.ics
  const whole = await find(key)
  if (whole) {
    const first = firstOccurrence(whole, timeZone)
    if (first && !first.recurring) return first
  }
  const { uid, date } = parseAttendanceKey(key)
  const ics = date && (await find(uid))
  if (!ics) return null
  try {
    return allOccurrences(ics, timeZone).find((o) => o.date === date) ?? null
  } catch {
    return null
  }
}

export interface EventCounts {
  kind: EventKind | null
  nights: number
  service_hours: number
  miles: number
}

/** What attending the event (or occurrence) an attendance key names counts for; null when the calendar no longer holds it. */
export async function eventCounts(db: Executor, key: string): Promise<EventCounts | null> {
  const o = await occurrenceOf(db, key)
  return o && { kind: o.kind ?? null, nights: o.nights ?? 0, service_hours: o.service_hours ?? 0, miles: o.miles ?? 0 }
}
