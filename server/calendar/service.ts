// Calendar reads and the local copy: the shown window, occurrences in feed order with `mine`, and syncing the copy.
import type { Executor } from '../history/record.ts'
import { conflict, unprocessable } from '../errors.ts'
import { DateString, nowIso, t, Time24 } from '../schemas.ts'
import { getSetting } from '../settings/registry.ts'
import { type CalendarEvent, occurrences } from './event.ts'
import type { CalendarStore, StoredObject } from './store.ts'
import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { utcToZoned, zonedToUtc } from './zone.ts'

/** The calendar shows from the start of today (site time zone) to a year ahead. */
export const WINDOW_DAYS = 365

export const EventBody = t.Object(
  {
    title: t.String({ minLength: 1, maxLength: 200 }),
    date: DateString,
    unit: t.Optional(t.Union([t.Literal('pack'), t.Literal('troop'), t.Literal('both')], { error: 'must be pack, troop or both' })),
    end: t.Optional(DateString),
    time: t.Optional(Time24),
    end_time: t.Optional(Time24),
    location: t.Optional(t.String({ maxLength: 300 })),
    badge: t.Optional(t.String({ maxLength: 100 })),
    description: t.Optional(t.String({ maxLength: 5000 })),
  },
  { additionalProperties: false },
)

/** The event a request describes, after the rules a schema cannot say; 422 naming the field otherwise. */
export function eventFrom(body: typeof EventBody.static): CalendarEvent {
  if (body.end && body.end < body.date) throw unprocessable('end: must not be before date')
  if (body.end_time && !body.time) throw unprocessable('end_time: needs time (an all-day event has no times)')
  if (body.time && body.end_time && (!body.end || body.end === body.date) && body.end_time <= body.time)
    throw unprocessable('end_time: must be after time on a one-day event')
  if (!body.title.trim()) throw unprocessable('title: must not be empty')
  return { ...body, title: body.title.trim(), unit: body.unit ?? 'both' }
}

export async function shownWindow(db: Executor, now = Date.now()) {
  const timeZone: string = await getSetting(db, 'site.timezone')
  const from = zonedToUtc(utcToZoned(now, timeZone).date, '00:00', timeZone)
  return { timeZone, from, to: from + WINDOW_DAYS * 86_400_000 }
}

/** Every occurrence in the window, ordered by start then title, each with `mine`. */
export async function eventsOf(db: Executor, objects: Pick<StoredObject, 'ics'>[], now = Date.now()) {
  const { timeZone, from, to } = await shownWindow(db, now)
  const mine = new Set((await db.selectFrom('calendar_uids').select('uid').execute()).map((r) => r.uid))
  return objects
    .flatMap((o) => {
      try {
        return occurrences(o.ics, from, to, timeZone)
      } catch {
        return [] // a resource another client wrote that is not valid iCalendar is skipped, not fatal
      }
    })
    .sort((a, b) => a.start - b.start || a.title.localeCompare(b.title))
    .map(({ start, ...e }) => ({ ...e, mine: mine.has(e.uid) }))
}

/** Replaces the local copy of the store (read by the site build) with what the store holds now. */
export async function syncCopy(db: Executor, objects: StoredObject[]): Promise<void> {
  const now = nowIso()
  await db.deleteFrom('calendar_objects').execute()
  for (const o of objects)
    await db
      .insertInto('calendar_objects')
      .values({ ...o, synced_at: now })
      .onConflict((oc) => oc.column('uid').doNothing())
      .execute()
}

/** 409: the service's own state (no store configured) forbids the write; it is not a fault of the server. */
export const notConfigured = () =>
  conflict('The calendar is not configured: set CALDAV_URL, CALDAV_USERNAME and CALDAV_PASSWORD to write events')

/** Reads the store and replaces the local copy with it (one transaction); returns what the store holds. */
export async function refreshCopy(db: Kysely<Database>, calendar: CalendarStore): Promise<StoredObject[]> {
  const objects = await calendar.list()
  await db.transaction().execute((trx) => syncCopy(trx, objects))
  return objects
}
