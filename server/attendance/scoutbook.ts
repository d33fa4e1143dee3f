// One event's attendance as CSV in the columns of Scoutbook's log files (camping, hiking and service logs), so a
// leader enters it there once: one row per attendee for each log the event counts for.
import type { Caller } from '../auth/credential.ts'
import { assertLeadsSlug } from '../auth/led-units.ts'
import { csvDocument, eventFileName } from '../csv.ts'
import type { Executor } from '../db/database.ts'
import { notFound, unprocessable } from '../errors.ts'
import { nowIso } from '../schemas.ts'
import { type Attended, attendedEvents } from './facts.ts'

export const SCOUTBOOK_COLUMNS = [
  'BSA Member ID',
  'First Name',
  'Middle Name',
  'Last Name',
  'Log Type',
  'Date',
  'Nights',
  'Days',
  'Miles',
  'Hours',
  'Frost Points',
  'Location/Name',
  'Notes',
]

type Cell = string | number
/** The logs an event counts for: [log type, nights, days, miles, hours]; a meeting that counts for none still lists who came. */
function logsOf(e: Attended): Cell[][] {
  const days = e.end ? Math.round((Date.parse(e.end) - Date.parse(e.date)) / 86_400_000) + 1 : 1
  const logs: Cell[][] = [
    ...(e.nights > 0 ? [['Camping', e.nights, days, '', '']] : []),
    ...(e.miles > 0 ? [['Hiking', '', '', e.miles, '']] : []),
    ...(e.service_hours > 0 ? [['Service', '', '', '', e.service_hours]] : []),
  ]
  const byKind = { campout: 'Camping', hike: 'Hiking', service: 'Service' } as Record<string, string>
  return logs.length ? logs : [[byKind[e.kind ?? ''] ?? '', '', '', '', '']]
}

/** 2026-12-05 → 12/05/2026, as Scoutbook writes dates. */
const usDate = (date: string) => `${date.slice(5, 7)}/${date.slice(8, 10)}/${date.slice(0, 4)}`

/** An adult's name as written on the attendance: the last word is the last name. */
function splitName(name: string): [string, string] {
  const words = name.trim().split(/\s+/)
  return words.length > 1 ? [words.slice(0, -1).join(' '), words.at(-1)!] : [words[0] ?? '', '']
}

/**
 * The event an attendance key names (`<uid>#<date>` for one occurrence of a repeating event, as taking attendance
 * names it): 404 when the calendar does not hold it, 422 for a repeating event named without its day.
 */
async function eventAsked(db: Executor, key: string) {
  const event = (await attendedEvents(db, [{ event_uid: key, recorded_at: nowIso() }])).get(key)!
  if (event.in_calendar) return event
  const held = await db.selectFrom('calendar_objects').select('uid').where('uid', '=', key).executeTakeFirst()
  if (held) throw unprocessable('uid: this event repeats; name one occurrence as <uid>#<date>', undefined, 'uid')
  throw notFound('No such event (it may have been deleted), or the repeating event does not happen on that day')
}

/**
 * GET /api/admin/calendar/{uid}/attendance.csv: who came (scouts, then adults), for leaders of the event's unit (403
 * otherwise). UTF-8 with a byte-order mark; text cells a spreadsheet would run start with a quote.
 */
export async function attendanceCsv(db: Executor, caller: Caller, key: string) {
  const event = await eventAsked(db, key)
  assertLeadsSlug(caller, event.unit!, 'This event')
  const scouts = await db
    .selectFrom('attendance')
    .innerJoin('scouts', 'scouts.id', 'attendance.scout_id')
    .select(['scouts.org_member_id', 'scouts.first_name', 'scouts.last_name'])
    .where('attendance.event_uid', '=', key)
    .where('attendance.present', '=', 1)
    .orderBy('scouts.last_name')
    .orderBy('scouts.first_name')
    .execute()
  const adults = await db
    .selectFrom('attendance_adults')
    .select('name')
    .where('event_uid', '=', key)
    .where('present', '=', 1)
    .orderBy('name')
    .execute()
  const people: Cell[][] = [
    ...scouts.map((s) => [s.org_member_id ?? '', s.first_name, '', s.last_name ?? '']),
    ...adults.map((a) => ['', splitName(a.name)[0], '', splitName(a.name)[1]]),
  ]
  const where = event.location ? `${event.title}, ${event.location}` : event.title
  const rows = people.flatMap((person) =>
    logsOf(event).map(([type, nights, days, miles, hours]) => [
      ...person,
      type,
      usDate(event.date),
      nights,
      days,
      miles,
      hours,
      '',
      where,
      '',
    ]),
  )
  return {
    filename: eventFileName('attendance', event.date, event.title),
    csv: `\uFEFF${csvDocument(
      SCOUTBOOK_COLUMNS.map((c) => `"${c}"`),
      rows,
    )}`,
  }
}
