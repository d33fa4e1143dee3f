// The calendar as the API and the pages see it: the event body, the shown window, occurrences in date order
// with `mine`, the local copy the public pages are built from, and creating, replacing and deleting the
// events the site owns in the CalDAV store.
import type { Caller } from '../auth/credential.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { record, type Trx, write } from '../db/write.ts'
import { forbidden, notFound, unprocessable } from '../errors.ts'
import { nowIso } from '../schemas.ts'
import { errorText, logEvent } from '../ops/log.ts'
import { getSetting } from '../settings/registry.ts'
import { assertLeadsSlug } from '../auth/led-units.ts'
import {
  type CalendarEvent,
  firstOccurrence,
  type Occurrence,
  occurrencesIn,
  type Repeat,
  repeatDates,
  titleAndUnitOf,
  toICalendar,
} from './event.ts'
import { type CalendarStore, type StoredObject, StoreFailed } from './calendar-store.ts'
import { deletedWithReplies, followStore, setAsking, startOf } from './rsvp.ts'
import { totalsByUid } from './counts.ts'
import { signupFrom, type SignupSettings } from './signup.ts'
import type { SignupMail } from './signup-mail.ts'
import { cancelSignups } from './cancel.ts'
import { addDays, existsIn, utcToZoned, zonedToUtc } from './zone.ts'
import { eventWords } from '../words.ts'
import { EventBody, UNREACHABLE } from './schemas.ts'

const REFUSING =
  'The calendar server refuses the site (check its address and password with `bun server/cli.ts caldav-check`); changes will be possible again when it answers.'

/** The calendar shows from the start of today (site time zone) to a year ahead. */
export const WINDOW_DAYS = 365

/** The event a request describes, after the rules a schema cannot say; 422 naming the field otherwise. */
export function eventFrom({ rsvp, signup, ...body }: typeof EventBody.static, timeZone: string): CalendarEvent {
  if (rsvp && body.repeat) throw unprocessable('rsvp: a repeating event cannot ask for replies; ask on a one-time event')
  // A calendar keeps real dates of its units' lives; far years break time-zone arithmetic and no client shows them.
  for (const name of ['date', 'end'] as const)
    if (body[name] && (body[name] < '1900-01-01' || body[name] > '2199-12-31'))
      throw unprocessable(`${name}: must be in the years 1900 to 2199`)
  if (body.end && body.end < body.date) throw unprocessable('end: must not be before date')
  if (body.end_time && !body.time) throw unprocessable('end_time: needs time (an all-day event has no times)')
  if (body.time && body.end_time && (!body.end || body.end === body.date) && body.end_time <= body.time)
    throw unprocessable('end_time: must be after time on a one-day event')
  // A time the clock skips (02:30 on the spring-forward day) would be stored as some other hour without a word.
  for (const [name, date, time] of [
    ['time', body.date, body.time],
    ['end_time', body.end ?? body.date, body.end_time],
  ] as const)
    if (time && !existsIn(date, time, timeZone))
      throw unprocessable(
        `${name}: ${date} ${time} does not happen in ${timeZone} (the clocks skip it); choose another time`,
        'nonexistent_local_time',
      )
  if (!body.title.trim()) throw unprocessable('title: must not be empty')
  if (!body.repeat) {
    if (body.repeat_until || body.skip_dates?.length) throw unprocessable('repeat: is needed with repeat_until and skip_dates')
    return { ...body, title: body.title.trim(), unit: body.unit ?? 'both' }
  }
  return { ...body, title: body.title.trim(), unit: body.unit ?? 'both', ...repeatFrom(body, body.repeat) }
}

/** The repeat of an event, checked: an end, a length that fits between repeats, and skipped days that are repeat days. */
function repeatFrom(body: typeof EventBody.static, repeat: Repeat) {
  const until = body.repeat_until
  if (!until) throw unprocessable('repeat_until: is needed with repeat')
  if (until < body.date) throw unprocessable('repeat_until: must not be before date')
  if (until > addDays(body.date, 3 * 366)) throw unprocessable('repeat_until: must be at most three years after date')
  const day = Number(body.date.slice(8, 10))
  if (repeat === 'monthly_date' && day > 28)
    throw unprocessable(`repeat: some months have no ${day}th; repeat on the same weekday of the month, or start on the 28th or before`)
  if (body.end && body.end >= addDays(body.date, repeat === 'weekly' ? 7 : 28))
    throw unprocessable('end: a repeating event must end before it repeats')
  const days = new Set(repeatDates(body.date, repeat, until))
  const skip_dates = [...new Set(body.skip_dates ?? [])].sort()
  const stray = skip_dates.find((d) => !days.has(d))
  if (stray) throw unprocessable(`skip_dates: ${stray} is not one of the days this event repeats on`)
  return { repeat, repeat_until: until, skip_dates }
}

export async function shownWindow(db: Executor, now = Date.now()) {
  const timeZone = await getSetting(db, 'site.timezone')
  const from = zonedToUtc(utcToZoned(now, timeZone).date, '00:00', timeZone)
  return { timeZone, from, to: from + WINDOW_DAYS * 86_400_000 }
}

/** Every occurrence in the window (from `pastDays` days before today), ordered by start then title, each with `mine`. */
export async function eventsOf(db: Executor, objects: Pick<StoredObject, 'ics'>[], now = Date.now(), pastDays = 0) {
  const { timeZone, from, to } = await shownWindow(db, now)
  const start = pastDays ? zonedToUtc(addDays(utcToZoned(now, timeZone).date, -pastDays), '00:00', timeZone) : from
  return shown(db, occurrencesIn(objects, start, to, timeZone))
}

/** Occurrences as the API shows events: with `mine`, whether replies are asked, their totals and the sign-up. */
async function shown(db: Executor, occurrences: Occurrence[]) {
  const mine = new Set((await db.selectFrom('calendar_uids').select('uid').execute()).map((r) => r.uid))
  const replies = await totalsByUid(db)
  return occurrences.map(({ start, series, ...e }) => {
    const asked = replies.get(e.uid)
    return {
      ...e,
      ...series,
      mine: mine.has(e.uid),
      rsvp: asked?.asking ?? false,
      ...(asked ? { replies: asked.totals } : {}),
      ...(asked?.signup ? { signup: asked.signup } : {}),
    }
  })
}

/**
 * Reads the store and replaces the local copy with it (one transaction); returns what the store holds and its
 * change tag. The copy mirrors outside data rather than recording anyone's change, so it has no action-log entry.
 */
export async function refreshCopy(db: Db, calendar: CalendarStore) {
  const snapshot = await calendar.snapshot()
  const { objects } = snapshot
  const now = nowIso()
  const timeZone = await getSetting(db, 'site.timezone')
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('calendar_objects').execute()
    for (const o of objects)
      await trx
        .insertInto('calendar_objects')
        .values({ ...o, synced_at: now })
        .onConflict((oc) => oc.column('uid').doNothing())
        .execute()
    await followStore(trx, objects, timeZone)
  })
  return snapshot
}

/**
 * What the admin calendar shows: the store read now; when a CalDAV store does not answer (502), the last good copy
 * with a plain sentence instead of its error, so leaders still see the plans.
 */
export async function listEvents(db: Db, calendar: CalendarStore, pastDays = 0) {
  const deleted_with_replies = await deletedWithReplies(db)
  const { objects, unreachable } = await readStore(db, calendar)
  const events = await eventsOf(db, objects, Date.now(), pastDays)
  return { configured: true, store: calendar.kind, ...(unreachable ? { unreachable } : {}), events, deleted_with_replies }
}

/** The store read now; when a CalDAV store does not answer (502), the last good copy and a plain sentence saying so. */
async function readStore(db: Db, calendar: CalendarStore) {
  try {
    return { objects: (await refreshCopy(db, calendar)).objects }
  } catch (error) {
    if (!(error instanceof StoreFailed)) throw error
    const copy = await db.selectFrom('calendar_objects').select(['uid', 'ics', 'synced_at']).execute()
    const copied_at = copy.reduce<string | null>((latest, o) => (latest && latest > o.synced_at ? latest : o.synced_at), null)
    return { objects: copy, unreachable: { detail: error.reached ? REFUSING : UNREACHABLE, copied_at } }
  }
}

/**
 * One event as the list shows it, a repeating one by its first day with its rule (what a PUT sends back), read from
 * the store now (or the last good copy); 404 when the store does not hold it.
 */
export async function eventByUid(db: Db, calendar: CalendarStore, uid: string) {
  return eventIn(db, (await readStore(db, calendar)).objects, uid)
}

async function eventIn(db: Executor, objects: Pick<StoredObject, 'uid' | 'ics'>[], uid: string) {
  const object = objects.find((o) => o.uid === uid)
  const first = object && firstOccurrence(object.ics, await getSetting(db, 'site.timezone'))
  if (!first) throw notFound('No such event (it may have been deleted)')
  return (await shown(db, [first]))[0]!
}

/**
 * A change to an event and the site's own record of it (replies asked, the action-log entry). The site's store takes
 * part in that one transaction. A CalDAV collection cannot: it is written first, and undone when the local write
 * fails, so the store and the site agree and the failure stands.
 */
async function commit(
  db: Db,
  calendar: CalendarStore,
  change: { store: (trx?: Trx) => Promise<void>; local: (trx: Trx) => Promise<void>; undo: () => Promise<void>; what: string },
) {
  if (calendar.kind === 'site')
    return write(db, async (trx) => {
      await change.store(trx)
      await change.local(trx)
    })
  await change.store()
  try {
    await write(db, change.local)
  } catch (error) {
    await change.undo().catch((undoError) =>
      logEvent('calendar.undo', {
        ok: false,
        message: `Could not undo the ${change.what} in the calendar store: ${errorText(undoError)}`,
      }),
    )
    throw error
  }
}

/**
 * A new event. Its uid is recorded as the site's before a CalDAV store holds it, so even a crash between the two
 * leaves an event the site shows as its own and may delete; a failed local write undoes the store write.
 */
export async function createEvent(db: Db, calendar: CalendarStore, caller: Caller, body: typeof EventBody.static, mail: SignupMail) {
  const timeZone = await getSetting(db, 'site.timezone')
  const event = eventFrom(body, timeZone)
  assertLeadsSlug(caller, event.unit, 'unit: this event')
  const uid = `${crypto.randomUUID()}@scouting-units-site`
  const asking = { rsvp: body.rsvp ?? false, signup: signupFrom(body.signup, body.rsvp ?? false, startOf(event, timeZone)), timeZone, mail }
  // Bookkeeping, not an action: the action-log entry comes with the write below.
  await db.insertInto('calendar_uids').values({ uid, created_at: nowIso() }).execute()
  const forget = () => db.deleteFrom('calendar_uids').where('uid', '=', uid).execute()
  try {
    await commit(db, calendar, {
      store: (trx) => calendar.create(uid, toICalendar(uid, event, timeZone), trx),
      local: async (trx) => {
        await setAsking(trx, caller.actor, uid, event, asking)
        await record(trx, caller.actor, 'calendar.create', eventWords(event) + askingWords(asking))
      },
      undo: () => calendar.remove(calendar.urlFor(uid), null),
      what: 'new event',
    })
  } catch (error) {
    await forget()
    throw error
  }
  // Refresh the copy (and the etag the next edit must match) from the store itself, and answer what it holds.
  return eventIn(db, (await refreshCopy(db, calendar)).objects, uid)
}

const askingWords = ({ rsvp, signup }: { rsvp: boolean; signup: SignupSettings | null }) =>
  rsvp ? `, asking families to ${signup ? 'sign up' : 'reply'}` : ''

/** A stored resource as the history writes it, named by its first occurrence (a repeating one by its first day). */
export function storedEventWords(ics: string, timeZone: string): string | null {
  const first = firstOccurrence(ics, timeZone)
  return first ? eventWords({ ...first, ...first.series }) : null
}

/**
 * 403 before anything reaches the store when the site did not create the uid, or when the event (as the local copy
 * holds it) is for a unit the caller does not lead.
 */
async function assertMine(db: Executor, caller: Caller, uid: string) {
  if (!(await db.selectFrom('calendar_uids').select('uid').where('uid', '=', uid).executeTakeFirst()))
    throw forbidden('This event was not created by the site; edit it in the calendar app that made it')
  const copy = await db.selectFrom('calendar_objects').select('ics').where('uid', '=', uid).executeTakeFirst()
  const facts = copy && titleAndUnitOf(copy.ics)
  if (facts) assertLeadsSlug(caller, facts.unit, `"${facts.title}"`)
}

/** The resource as last seen (its url and etag); 404 when the store no longer holds it. */
async function current(db: Executor, calendar: CalendarStore, uid: string) {
  const known = await db.selectFrom('calendar_objects').select(['url', 'etag']).where('uid', '=', uid).executeTakeFirst()
  if (known) return known
  const live = (await calendar.list()).find((o) => o.uid === uid)
  if (!live) throw notFound('No such event (it may have been deleted)')
  return live
}

/** Replaces an event the site created; a change made meanwhile in another client is 409 (the store's 412). */
export async function replaceEvent(
  db: Db,
  calendar: CalendarStore,
  caller: Caller,
  uid: string,
  body: typeof EventBody.static,
  mail: SignupMail,
) {
  await assertMine(db, caller, uid)
  const timeZone = await getSetting(db, 'site.timezone')
  const event = eventFrom(body, timeZone)
  assertLeadsSlug(caller, event.unit, 'unit: this event')
  const { url, etag } = await current(db, calendar, uid)
  const before = await db.selectFrom('calendar_objects').select('ics').where('uid', '=', uid).executeTakeFirst()
  const asking = { rsvp: body.rsvp ?? false, signup: signupFrom(body.signup, body.rsvp ?? false, startOf(event, timeZone)), timeZone, mail }
  await commit(db, calendar, {
    store: (trx) => calendar.update(url, etag, toICalendar(uid, event, timeZone), trx),
    local: async (trx) => {
      await setAsking(trx, caller.actor, uid, event, asking)
      await record(trx, caller.actor, 'calendar.update', eventWords(event) + askingWords(asking))
    },
    undo: async () => {
      if (before) await calendar.update(url, null, before.ics)
    },
    what: 'change',
  })
  return eventIn(db, (await refreshCopy(db, calendar)).objects, uid)
}

/**
 * Deletes an event the site created, for real, answering it as it was; again 404. Before it starts, that cancels its
 * sign-ups (cancel.ts).
 */
export async function deleteEvent(db: Db, calendar: CalendarStore, caller: Caller, uid: string, mail: SignupMail) {
  await assertMine(db, caller, uid)
  const was = await eventByUid(db, calendar, uid)
  const { url, etag } = await current(db, calendar, uid)
  const copy = await db.selectFrom('calendar_objects').select('ics').where('uid', '=', uid).executeTakeFirst()
  const words = copy && storedEventWords(copy.ics, await getSetting(db, 'site.timezone'))
  await commit(db, calendar, {
    store: (trx) => calendar.remove(url, etag, trx),
    local: async (trx) => {
      await record(trx, caller.actor, 'calendar.delete', words || 'An event that was no longer in the local copy')
      await cancelSignups(trx, caller.actor, uid, mail)
    },
    undo: async () => {
      if (copy) await calendar.create(uid, copy.ics)
    },
    what: 'deletion',
  })
  await refreshCopy(db, calendar)
  return was
}
