// A calendar event as the API and the pages see it, and its iCalendar form (one VEVENT per resource).
// Standard properties carry what they can; `X-SITE-UNIT` (pack, troop, both) and `X-SITE-BADGE` carry the rest.
import ICAL from './ical.ts'
import { addDays, utcToZoned, zonedToUtc } from './zone.ts'

export interface CalendarEvent {
  title: string
  date: string
  unit: 'pack' | 'troop' | 'both'
  end?: string
  time?: string
  end_time?: string
  location?: string
  badge?: string
  description?: string
}

export interface Occurrence extends CalendarEvent {
  uid: string
  /** Start instant (UTC ms) for ordering. */
  start: number
  recurring: boolean
}

export const DEFAULT_MINUTES = 90
const UNITS = ['pack', 'troop', 'both'] as const

const utcTime = (ms: number) => ICAL.Time.fromJSDate(new Date(ms), true)
const dateValue = (date: string) => ICAL.Time.fromDateString(date)

/** The VCALENDAR text for an event owned by the site. Timed events are written in UTC, which round-trips exactly. */
export function toICalendar(uid: string, e: CalendarEvent, timeZone: string): string {
  const cal = new ICAL.Component(['vcalendar', [], []])
  cal.addPropertyWithValue('prodid', '-//Scouting units site//Calendar//EN')
  cal.addPropertyWithValue('version', '2.0')
  const ev = new ICAL.Component('vevent')
  ev.addPropertyWithValue('uid', uid)
  ev.addPropertyWithValue('dtstamp', utcTime(Date.now()))
  ev.addPropertyWithValue('summary', e.title)
  if (e.time) {
    const start = zonedToUtc(e.date, e.time, timeZone)
    const end = e.end_time
      ? zonedToUtc(e.end ?? e.date, e.end_time, timeZone)
      : e.end
        ? zonedToUtc(e.end, e.time, timeZone)
        : start + DEFAULT_MINUTES * 60_000
    ev.addPropertyWithValue('dtstart', utcTime(start))
    ev.addPropertyWithValue('dtend', utcTime(end))
  } else {
    // All-day: DATE values, with an exclusive end (the API's `end` is inclusive).
    ev.addPropertyWithValue('dtstart', dateValue(e.date))
    ev.addPropertyWithValue('dtend', dateValue(addDays(e.end ?? e.date, 1)))
  }
  if (e.location) ev.addPropertyWithValue('location', e.location)
  if (e.description) ev.addPropertyWithValue('description', e.description)
  ev.addPropertyWithValue('x-site-unit', e.unit)
  if (e.badge) ev.addPropertyWithValue('x-site-badge', e.badge)
  cal.addSubcomponent(ev)
  return cal.toString() + '\r\n'
}

/** Registers a calendar's VTIMEZONEs so events from other clients with a TZID convert correctly. */
function registerZones(cal: ICAL.Component) {
  for (const tz of cal.getAllSubcomponents('vtimezone')) {
    const zone = new ICAL.Timezone(tz)
    if (!ICAL.TimezoneService.has(zone.tzid)) ICAL.TimezoneService.register(zone)
  }
}

function fields(ev: ICAL.Event, start: ICAL.Time, end: ICAL.Time, timeZone: string): CalendarEvent {
  const comp = ev.component
  const unit = String(comp.getFirstPropertyValue('x-site-unit') ?? 'both')
  const base = {
    title: ev.summary || '(untitled)',
    unit: (UNITS as readonly string[]).includes(unit) ? (unit as CalendarEvent['unit']) : 'both',
    ...(ev.location ? { location: ev.location } : {}),
    ...(comp.getFirstPropertyValue('x-site-badge') ? { badge: String(comp.getFirstPropertyValue('x-site-badge')) } : {}),
    ...(ev.description ? { description: ev.description } : {}),
  }
  if (start.isDate) {
    const date = start.toString().slice(0, 10)
    const last = addDays(end.toString().slice(0, 10), -1)
    return { ...base, date, ...(last > date ? { end: last } : {}) }
  }
  const s = utcToZoned(start.toJSDate().getTime(), timeZone)
  const f = utcToZoned(end.toJSDate().getTime(), timeZone)
  return { ...base, date: s.date, time: s.time, end_time: f.time, ...(f.date !== s.date ? { end: f.date } : {}) }
}

/** Every occurrence of the events in one iCalendar resource that starts within [from, to), recurring ones expanded. */
export function occurrences(ics: string, from: number, to: number, timeZone: string): Occurrence[] {
  const cal = new ICAL.Component(ICAL.parse(ics))
  registerZones(cal)
  const out: Occurrence[] = []
  for (const comp of cal.getAllSubcomponents('vevent')) {
    if (comp.hasProperty('recurrence-id')) continue // exceptions are applied through their master below
    const ev = new ICAL.Event(comp, { strictExceptions: false })
    for (const exception of cal
      .getAllSubcomponents('vevent')
      .filter((c) => c.hasProperty('recurrence-id') && c.getFirstPropertyValue('uid') === ev.uid))
      ev.relateException(exception)
    // An all-day date is a day in the site's time zone, not midnight UTC: otherwise it sorts before
    // the previous evening's events.
    const instant = (t: ICAL.Time) => (t.isDate ? zonedToUtc(t.toString().slice(0, 10), '00:00', timeZone) : t.toJSDate().getTime())
    const push = (start: ICAL.Time, end: ICAL.Time, detail: ICAL.Event) => {
      const ms = instant(start)
      const endMs = instant(end)
      if (endMs > from && ms < to)
        out.push({ uid: ev.uid, start: ms, recurring: ev.isRecurring(), ...fields(detail, start, end, timeZone) })
    }
    if (!ev.isRecurring()) {
      push(ev.startDate, ev.endDate ?? ev.startDate, ev)
      continue
    }
    const it = ev.iterator()
    for (let next = it.next(), n = 0; next && n < 1000; next = it.next(), n++) {
      if (instant(next) >= to) break
      const o = ev.getOccurrenceDetails(next)
      push(o.startDate, o.endDate, o.item)
    }
  }
  return out
}

/** The UID of the (first) event in a resource. */
export function uidOf(ics: string): string | null {
  try {
    const ev = new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent')
    return (ev?.getFirstPropertyValue('uid') as string | null) ?? null
  } catch {
    return null
  }
}
