// Build-time data: the pages read the same SQLite database through the server's Kysely module.
import { openDatabase } from '#server/db/client.ts'
import { readEnv } from '#server/env.ts'
import ICAL from '#server/calendar/ical.ts'
import { announcementsWithState } from '#server/announcements/state.ts'
import { eventsOf, shownWindow } from '#server/calendar/service.ts'
import { answersCloseAt, signupOf } from '#server/calendar/signup.ts'
import { COUNT_PROPERTIES, titleAndUnitOf } from '#server/calendar/event.ts'
import { addDays, utcToZoned } from '#server/calendar/zone.ts'
import { forgetSettings, getSetting } from '#server/settings/registry.ts'
import { clockWords, UNIT_WORDS } from '#server/words.ts'
import { directoryOrder } from '#server/nearby/order.ts'
import { publicAlbums } from '#server/photos/public.ts'

const env = readEnv()
// The server migrates before it builds; the build only reads.
export const db = openDatabase(env.databasePath)
let albums: ReturnType<typeof publicAlbums> | null = null
/** The public photos by event, read once per build: every page's menu asks whether there are any. */
export const photoAlbums = () => (albums ??= publicAlbums(db))
/** Called before each build: a build process kept from the last build reads the settings and the photos again. */
export function readAfresh() {
  forgetSettings(db)
  albums = null
}
/** Whether the site sends mail (SMTP_URL): pages then offer what needs it. */
export const mailSetUp = env.mail !== null

/** The site's name and description (settings), and where it is served (PUBLIC_BASE_URL). */
export async function siteInfo() {
  return {
    name: await getSetting(db, 'site.name'),
    description: await getSetting(db, 'site.description'),
    baseUrl: env.publicBaseUrl,
  }
}

export const units = () => db.selectFrom('units').selectAll().orderBy('id').execute()

const DAYS: Record<string, string> = {
  monday: 'Mondays',
  tuesday: 'Tuesdays',
  wednesday: 'Wednesdays',
  thursday: 'Thursdays',
  friday: 'Fridays',
  saturday: 'Saturdays',
  sunday: 'Sundays',
}

/** "Tuesdays at 6:30 PM, Community hall" or null when nothing is set. */
export function meetingLine(u: { meeting_day: string | null; meeting_time: string | null; meeting_place: string | null }): string | null {
  const parts = []
  if (u.meeting_day) parts.push(DAYS[u.meeting_day] ?? u.meeting_day)
  if (u.meeting_time) parts.push(`at ${clockWords(u.meeting_time)}`)
  const when = parts.join(' ')
  return [when, u.meeting_place].filter(Boolean).join(', ') || null
}

/**
 * Live announcements (not scheduled, expired, revoked or over the cap, by the server's one rule) for a page: one
 * for both units shows everywhere; one for the pack or the troop on that unit's pages and the home page.
 */
export async function liveAnnouncements(page: { unit?: 'pack' | 'troop'; home?: boolean } = {}) {
  return (await announcementsWithState(db))
    .filter((a) => a.state === 'live' && (a.unit === 'both' || page.home || a.unit === page.unit))
    .sort((a, b) => a.starts_at.localeCompare(b.starts_at))
}

export const activeNearby = async () =>
  (await db.selectFrom('nearby_units').selectAll().where('active', '=', 1).execute()).sort(directoryOrder)

/** A unit's calendar: the pack or the troop; `null` is everything. */
export type CalendarUnit = 'pack' | 'troop' | null

/** Whether an event of `eventUnit` shows on `unit`'s calendar: its own events and those for both units. */
const shownFor = (unit: CalendarUnit, eventUnit: string) => !unit || eventUnit === unit || eventUnit === 'both'

/**
 * Upcoming events from the local copy of the calendar store, in date order; for a unit, its own and those for both.
 * An event asking for replies has `replies_close_at`: its start, or its sign-up's closing time when that is earlier.
 */
export async function upcomingEvents(unit: CalendarUnit = null) {
  const objects = await db.selectFrom('calendar_objects').select('ics').execute()
  const asking = await db.selectFrom('rsvp_events').select(['uid', 'starts_at', 'signup']).where('asking', '=', 1).execute()
  const closes = new Map(
    asking.map((r) => [r.uid, new Date(answersCloseAt({ starts_at: r.starts_at, signup: signupOf(r) })).toISOString()]),
  )
  // Members-only events never reach the public site: families see them on the family page and their private feed.
  return (await eventsOf(db, objects))
    .filter((e) => e.visibility !== 'members' && shownFor(unit, e.unit))
    .map(({ nights, service_hours, miles, ...e }) => ({ ...e, replies_close_at: e.rsvp ? (closes.get(e.uid) ?? null) : null }))
}

/** The id of an occurrence's card in the list view, which the month view links to (as the family page: the uid encoded). */
export const eventAnchor = (e: { uid: string; date: string }) => `event-${encodeURIComponent(e.uid)}-${e.date}`

/** The list and month pages of a unit's calendar (or of everything). */
export const calendarPaths = (unit: CalendarUnit) => ({
  list: unit ? `/calendar/${unit}/` : '/calendar/',
  month: unit ? `/calendar/${unit}/month/` : '/calendar/month/',
})

/**
 * Where a feed is: its path (to download), its address, the webcal:// address phones subscribe to (rather than
 * importing once), and Google Calendar's subscribe link for it.
 */
export async function feedLinks(unit: CalendarUnit = null) {
  const path = unit ? `/calendar/${unit}.ics` : '/calendar.ics'
  const address = new URL(path, `${(await siteInfo()).baseUrl}/`).href
  const webcal = address.replace(/^https?:/, 'webcal:')
  return { path, address, webcal, google: `https://calendar.google.com/calendar/render?cid=${encodeURIComponent(webcal)}` }
}

/**
 * The subscribable feed: every stored event as written (recurrence rules intact) with the time zones it needs; for a
 * unit, the resources whose event is that unit's or both units' (named after the unit).
 */
export async function calendarFeed(unit: CalendarUnit = null): Promise<string> {
  const name = (await siteInfo()).name
  const cal = new ICAL.Component(['vcalendar', [], []])
  cal.addPropertyWithValue('prodid', '-//Scouting units site//Calendar//EN')
  cal.addPropertyWithValue('version', '2.0')
  cal.addPropertyWithValue('calscale', 'GREGORIAN')
  cal.addPropertyWithValue('x-wr-calname', unit ? `${name} — ${UNIT_WORDS[unit]}` : name)
  cal.addPropertyWithValue('x-wr-timezone', await getSetting(db, 'site.timezone'))
  const zones = new Set<string>()
  for (const { ics } of await db.selectFrom('calendar_objects').select('ics').orderBy('uid').execute()) {
    const facts = titleAndUnitOf(ics)
    if (facts?.members || (unit && !shownFor(unit, facts?.unit ?? ''))) continue
    let source: ICAL.Component
    try {
      source = new ICAL.Component(ICAL.parse(ics))
    } catch {
      continue
    }
    for (const tz of source.getAllSubcomponents('vtimezone')) {
      const id = String(tz.getFirstPropertyValue('tzid'))
      if (!zones.has(id)) cal.addSubcomponent(tz) && zones.add(id)
    }
    for (const ev of source.getAllSubcomponents('vevent')) {
      // What an event counts for is the units' record keeping, not the public's: only the kind goes out.
      for (const property of Object.values(COUNT_PROPERTIES)) ev.removeAllProperties(property)
      cal.addSubcomponent(ev)
    }
  }
  return cal.toString() + '\r\n'
}

export interface MonthDay {
  date: string
  /** In the window the calendar shows (today to a year ahead); days before or after it have no events. */
  shown: boolean
  today: boolean
  /** The events of that day; `continued` on the later days of an event over several days. */
  events: (Awaited<ReturnType<typeof upcomingEvents>>[number] & { continued: boolean })[]
}

/**
 * The months of the shown window for the month view, each as weeks of seven days (Sunday first, null outside the
 * month; weeks wholly outside the window left out) with the events of each day. Today is the site's today (in its
 * time zone) when the site was built.
 */
export async function calendarMonths(unit: CalendarUnit = null) {
  const { timeZone, from, to } = await shownWindow(db)
  const today = utcToZoned(from, timeZone).date
  const last = utcToZoned(to - 1, timeZone).date
  const byDay = new Map<string, MonthDay['events']>()
  for (const e of await upcomingEvents(unit))
    for (let d = e.date < today ? today : e.date; d <= (e.end ?? e.date) && d <= last; d = addDays(d, 1))
      (byDay.get(d) ?? byDay.set(d, []).get(d)!).push({ ...e, continued: d !== e.date })
  const months = []
  for (let first = `${today.slice(0, 7)}-01`; first <= last; first = addDays(first, 32).slice(0, 8) + '01') {
    const days: (MonthDay | null)[] = Array(new Date(`${first}T12:00:00Z`).getUTCDay()).fill(null)
    for (let d = first; d.slice(0, 7) === first.slice(0, 7); d = addDays(d, 1))
      days.push({ date: d, shown: d >= today && d <= last, today: d === today, events: byDay.get(d) ?? [] })
    while (days.length % 7) days.push(null)
    const weeks = Array.from({ length: days.length / 7 }, (_, i) => days.slice(i * 7, i * 7 + 7)).filter((w) => w.some((d) => d?.shown))
    const words = (month: 'long' | 'short') =>
      new Date(`${first}T12:00:00Z`).toLocaleDateString('en-US', { month, year: 'numeric', timeZone: 'UTC' })
    months.push({ key: first.slice(0, 7), label: words('long'), short: words('short'), weeks })
  }
  return { today, months }
}
