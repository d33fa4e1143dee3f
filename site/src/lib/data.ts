// Build-time data: the pages read the same SQLite database through the server's Kysely module.
import { openDatabase } from '#server/db/client.ts'
import { readEnv } from '#server/env.ts'
import ICAL from '#server/calendar/ical.ts'
import { announcementsWithState } from '#server/announcements/state.ts'
import { eventsOf } from '#server/calendar/service.ts'
import { getSetting } from '#server/settings/registry.ts'
import { clockWords } from '#server/words.ts'
import { directoryOrder } from '#server/nearby/order.ts'

const env = readEnv()
// The server migrates before it builds; the build only reads.
export const db = openDatabase(env.databasePath)
/** Whether the site sends mail (SMTP_URL): pages then offer what needs it. */
export const mailSetUp = env.mail !== null

/** The site's name and description (settings), and where it is served (PUBLIC_BASE_URL). */
export async function siteInfo() {
  return {
    name: (await getSetting(db, 'site.name')) as string,
    description: (await getSetting(db, 'site.description')) as string,
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

/** Seasons in natural order, each with its rows in file order and their variants. */
export async function catalog() {
  const variants = await db.selectFrom('catalog_variants').selectAll().orderBy('id').execute()
  const seasons = new Map<string, Map<string, typeof variants>>()
  for (const v of variants) {
    const rows = seasons.get(v.season) ?? seasons.set(v.season, new Map()).get(v.season)!
    ;(rows.get(v.row_name) ?? rows.set(v.row_name, []).get(v.row_name)!).push(v)
  }
  const order = (s: string) => s.slice(1).split('s').map(Number)
  return [...seasons.entries()]
    .sort(([a], [b]) => order(a)[0] - order(b)[0] || order(a)[1] - order(b)[1])
    .map(([season, rows]) => ({ season, rows: [...rows.entries()].map(([row_name, variants]) => ({ row_name, variants })) }))
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

/** Upcoming events from the local copy of the calendar store, in date order. */
export async function upcomingEvents() {
  const objects = await db.selectFrom('calendar_objects').select('ics').execute()
  return eventsOf(db, objects)
}

/** The subscribable feed: every stored event as written (recurrence rules intact) with the time zones it needs. */
export async function calendarFeed(): Promise<string> {
  const cal = new ICAL.Component(['vcalendar', [], []])
  cal.addPropertyWithValue('prodid', '-//Scouting units site//Calendar//EN')
  cal.addPropertyWithValue('version', '2.0')
  cal.addPropertyWithValue('calscale', 'GREGORIAN')
  cal.addPropertyWithValue('x-wr-calname', (await siteInfo()).name)
  cal.addPropertyWithValue('x-wr-timezone', await getSetting(db, 'site.timezone'))
  const zones = new Set<string>()
  for (const { ics } of await db.selectFrom('calendar_objects').select('ics').orderBy('uid').execute()) {
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
    for (const ev of source.getAllSubcomponents('vevent')) cal.addSubcomponent(ev)
  }
  return cal.toString() + '\r\n'
}
