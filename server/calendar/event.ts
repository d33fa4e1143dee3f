// A calendar event as the API and the pages see it, and its iCalendar form (one VEVENT per resource).
// Standard properties carry what they can; `X-SITE-UNIT` (pack, troop, both), `X-SITE-BADGE` and what the event counts
// for (`X-SITE-KIND`, `X-SITE-NIGHTS`, `X-SITE-SERVICE-HOURS`, `X-SITE-MILES`) carry the rest.
// A repeating event is one VEVENT with an RRULE and EXDATEs; its times are wall-clock times in the site's
// time zone (TZID with its VTIMEZONE), so a 7 PM meeting stays at 7 PM across daylight-saving changes.
import { tzlib_get_ical_block } from 'timezones-ical-library'
import ICAL from './ical.ts'
import { addDays, utcToZoned, zonedToUtc } from './zone.ts'

export const REPEATS = ['weekly', 'monthly_date', 'monthly_weekday'] as const
export type Repeat = (typeof REPEATS)[number]

export const EVENT_KINDS = ['meeting', 'campout', 'hike', 'service', 'other'] as const
export type EventKind = (typeof EVENT_KINDS)[number]

/** What attending counts for, per attendee; the numbers stay off the public site and its feeds (only the kind shows). */
export const COUNT_PROPERTIES = { nights: 'x-site-nights', service_hours: 'x-site-service-hours', miles: 'x-site-miles' } as const

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
  /** Members-only events (CLASS:PRIVATE) stay off the public site and feeds; public when absent. */
  visibility?: 'public' | 'members'
  repeat?: Repeat
  /** The last day a repeat may fall on (inclusive). */
  repeat_until?: string
  /** Days a repeat does not happen. */
  skip_dates?: string[]
  kind?: EventKind
  /** Camping nights an attendee earns. */
  nights?: number
  /** Service hours an attendee earns. */
  service_hours?: number
  /** Miles an attendee hikes (or paddles, or rides). */
  miles?: number
}

/** A repeating event the site can describe: its rule in the API's words and the day the series starts. */
export interface Series {
  first_date: string
  repeat: Repeat
  repeat_until: string
  skip_dates: string[]
}

export interface Occurrence extends CalendarEvent {
  uid: string
  /** Start instant (UTC ms) for ordering. */
  start: number
  recurring: boolean
  /** The rule of a repeating event, when it is one the site's own form can describe. */
  series?: Series
}

export const DEFAULT_MINUTES = 90
/** CLASS values another calendar app may write for an event not for everyone: both keep it members-only. */
const MEMBERS_CLASSES = new Set(['PRIVATE', 'CONFIDENTIAL'])
const UNITS = ['pack', 'troop', 'both'] as const

const utcTime = (ms: number) => ICAL.Time.fromJSDate(new Date(ms), true)
const dateValue = (date: string) => ICAL.Time.fromDateString(date)

const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA']
const compact = (date: string) => date.replaceAll('-', '')
const weekdayOf = (date: string) => new Date(`${date}T12:00:00Z`).getUTCDay()

/** The RRULE of a repeat starting on `date`: weekly, on the same day of the month, or on the same weekday of the month. */
function rruleOf(repeat: Repeat, date: string, until: string): string {
  const day = Number(date.slice(8, 10))
  const nth = Math.ceil(day / 7)
  const rule = {
    weekly: 'FREQ=WEEKLY',
    monthly_date: 'FREQ=MONTHLY',
    // The fifth weekday of a month is its last one (-1), which every month has.
    monthly_weekday: `FREQ=MONTHLY;BYDAY=${nth === 5 ? -1 : nth}${WEEKDAYS[weekdayOf(date)]}`,
  }[repeat]
  return `${rule};UNTIL=${until}`
}

/** The VTIMEZONE of an IANA zone (from timezones-ical-library) and the TZID it goes by; null for a zone it lacks. */
function vtimezoneOf(timeZone: string): { component: ICAL.Component; tzid: string } | null {
  const block = tzlib_get_ical_block(timeZone)
  if (!Array.isArray(block)) return null
  return { component: ICAL.Component.fromString(block[0]), tzid: block[1].replace(/^TZID=/, '') }
}

/**
 * The VCALENDAR text for an event owned by the site. A one-time timed event is written in UTC, which
 * round-trips exactly; a repeating one in the site's time zone with its VTIMEZONE.
 */
export function toICalendar(uid: string, e: CalendarEvent, timeZone: string): string {
  const cal = new ICAL.Component(['vcalendar', [], []])
  cal.addPropertyWithValue('prodid', '-//Scouting units site//Calendar//EN')
  cal.addPropertyWithValue('version', '2.0')
  const ev = new ICAL.Component('vevent')
  ev.addPropertyWithValue('uid', uid)
  ev.addPropertyWithValue('dtstamp', utcTime(Date.now()))
  ev.addPropertyWithValue('summary', e.title)
  const lines: string[] = [] // properties ical.js would not write in the form RFC 5545 wants (TZID, UNTIL)
  if (e.time) {
    const start = zonedToUtc(e.date, e.time, timeZone)
    const end = e.end_time
      ? zonedToUtc(e.end ?? e.date, e.end_time, timeZone)
      : e.end
        ? zonedToUtc(e.end, e.time, timeZone)
        : start + DEFAULT_MINUTES * 60_000
    if (e.repeat) {
      // UNTIL is in UTC when DTSTART has a time: the end of the last day in the site's time zone.
      const until = utcTime(zonedToUtc(addDays(e.repeat_until!, 1), '00:00', timeZone) - 1000).toICALString()
      const zone = vtimezoneOf(timeZone)
      const wall = (ms: number) => utcToZoned(ms, timeZone)
      // Wall-clock times with the zone's TZID; in UTC only for a zone the library lacks (DST then shifts them).
      const at = zone
        ? ({ date, time }: { date: string; time: string }) => `;TZID=${zone.tzid}:${compact(date)}T${time.replace(':', '')}00`
        : ({ date, time }: { date: string; time: string }) => `:${utcTime(zonedToUtc(date, time, timeZone)).toICALString()}`
      if (zone) cal.addSubcomponent(zone.component)
      lines.push(`DTSTART${at(wall(start))}`, `DTEND${at(wall(end))}`, `RRULE:${rruleOf(e.repeat, e.date, until)}`)
      for (const skip of e.skip_dates ?? []) lines.push(`EXDATE${at({ date: skip, time: e.time })}`)
    } else {
      ev.addPropertyWithValue('dtstart', utcTime(start))
      ev.addPropertyWithValue('dtend', utcTime(end))
    }
  } else {
    // All-day: DATE values, with an exclusive end (the API's `end` is inclusive).
    ev.addPropertyWithValue('dtstart', dateValue(e.date))
    ev.addPropertyWithValue('dtend', dateValue(addDays(e.end ?? e.date, 1)))
    if (e.repeat) {
      lines.push(`RRULE:${rruleOf(e.repeat, e.date, compact(e.repeat_until!))}`)
      for (const skip of e.skip_dates ?? []) lines.push(`EXDATE;VALUE=DATE:${compact(skip)}`)
    }
  }
  for (const line of lines) ev.addProperty(ICAL.Property.fromString(line))
  if (e.location) ev.addPropertyWithValue('location', e.location)
  if (e.description) ev.addPropertyWithValue('description', e.description)
  ev.addPropertyWithValue('x-site-unit', e.unit)
  if (e.badge) ev.addPropertyWithValue('x-site-badge', e.badge)
  if (e.kind) ev.addPropertyWithValue('x-site-kind', e.kind)
  for (const [name, property] of Object.entries(COUNT_PROPERTIES)) {
    const value = e[name as keyof typeof COUNT_PROPERTIES]
    if (value !== undefined) ev.addPropertyWithValue(property, String(value))
  }
  if (e.visibility === 'members') ev.addPropertyWithValue('class', 'PRIVATE')
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
    ...(MEMBERS_CLASSES.has(String(comp.getFirstPropertyValue('class') ?? '').toUpperCase()) ? { visibility: 'members' as const } : {}),
    ...countsOf(comp),
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

/** The kind and numbers an event counts for, as far as another client left them readable (a bad value is absent). */
export function countsOf(comp: ICAL.Component): Pick<CalendarEvent, 'kind' | 'nights' | 'service_hours' | 'miles'> {
  const kind = String(comp.getFirstPropertyValue('x-site-kind') ?? '')
  const out: Pick<CalendarEvent, 'kind' | 'nights' | 'service_hours' | 'miles'> = {}
  if ((EVENT_KINDS as readonly string[]).includes(kind)) out.kind = kind as EventKind
  for (const [name, property] of Object.entries(COUNT_PROPERTIES)) {
    const raw = comp.getFirstPropertyValue(property)
    const value = raw === null || raw === '' ? NaN : Number(raw)
    if (Number.isFinite(value) && value >= 0 && (name !== 'nights' || Number.isInteger(value)))
      out[name as keyof typeof COUNT_PROPERTIES] = value
  }
  return out
}

/** The rule of a repeating event in the API's words, when it is one the site's form can describe. */
function seriesOf(ev: ICAL.Event, timeZone: string): Series | undefined {
  const comp = ev.component
  const rules = comp.getAllProperties('rrule')
  if (rules.length !== 1 || comp.hasProperty('rdate')) return undefined
  const rule = rules[0].getFirstValue() as ICAL.Recur
  const parts = Object.keys(rule.parts)
  const byday = (rule.parts.BYDAY ?? []) as string[]
  const repeat: Repeat | null =
    rule.freq === 'WEEKLY' && parts.length === 0
      ? 'weekly'
      : rule.freq === 'MONTHLY' && parts.length === 0
        ? 'monthly_date'
        : rule.freq === 'MONTHLY' && parts.length === 1 && byday.length === 1 && /^-?\d/.test(byday[0])
          ? 'monthly_weekday'
          : null
  if (!repeat || !rule.until || (rule.interval ?? 1) !== 1) return undefined
  const day = (t: ICAL.Time) => (t.isDate ? t.toString().slice(0, 10) : utcToZoned(t.toJSDate().getTime(), timeZone).date)
  const skip_dates = comp.getAllProperties('exdate').flatMap((p) => p.getValues() as ICAL.Time[])
  return { first_date: day(ev.startDate), repeat, repeat_until: day(rule.until), skip_dates: skip_dates.map(day).sort() }
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
    const series = ev.isRecurring() ? seriesOf(ev, timeZone) : undefined
    const push = (start: ICAL.Time, end: ICAL.Time, detail: ICAL.Event) => {
      const ms = instant(start)
      const endMs = instant(end)
      if (endMs > from && ms < to)
        out.push({
          uid: ev.uid,
          start: ms,
          recurring: ev.isRecurring(),
          ...(series ? { series } : {}),
          ...fields(detail, start, end, timeZone),
        })
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

/**
 * Every occurrence of several resources within [from, to), ordered by start then title. A resource another client
 * wrote that is not valid iCalendar is skipped, not fatal.
 */
export function occurrencesIn(objects: { ics: string }[], from: number, to: number, timeZone: string): Occurrence[] {
  return objects
    .flatMap((o) => {
      try {
        return occurrences(o.ics, from, to, timeZone)
      } catch {
        return []
      }
    })
    .sort(byStartThenTitle)
}

const byStartThenTitle = (a: Occurrence, b: Occurrence) => a.start - b.start || a.title.localeCompare(b.title)

/** Every occurrence of the events in one resource, from the earliest instant a Date holds to the latest. */
export const allOccurrences = (ics: string, timeZone: string): Occurrence[] => occurrences(ics, -8.64e15, 8.64e15, timeZone)

/** A resource's first occurrence (a repeating event's first day); undefined when it holds none or is not valid iCalendar. */
export const firstOccurrence = (ics: string, timeZone: string): Occurrence | undefined => {
  try {
    return allOccurrences(ics, timeZone).sort(byStartThenTitle)[0]
  } catch {
    return undefined
  }
}

/** The title, unit and whether members-only of the (first) event in a resource, for naming it and choosing whom it concerns. */
export function titleAndUnitOf(ics: string): { title: string; unit: CalendarEvent['unit']; members: boolean } | null {
  try {
    const ev = new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent')
    if (!ev) return null
    const unit = String(ev.getFirstPropertyValue('x-site-unit') ?? 'both')
    return {
      title: String(ev.getFirstPropertyValue('summary') ?? '(untitled)'),
      unit: (UNITS as readonly string[]).includes(unit) ? (unit as CalendarEvent['unit']) : 'both',
      members: MEMBERS_CLASSES.has(String(ev.getFirstPropertyValue('class') ?? '').toUpperCase()),
    }
  } catch {
    return null
  }
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

/** The days a repeat falls on, from `date` to `until` (before any are skipped). */
export function repeatDates(date: string, repeat: Repeat, until: string): string[] {
  const ics = toICalendar('repeat-dates', { title: 'repeat', date, unit: 'both', repeat, repeat_until: until }, 'UTC')
  return allOccurrences(ics, 'UTC').map((o) => o.date)
}
