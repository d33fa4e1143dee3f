// String formats the schemas rely on, registered here explicitly rather than left to whichever library
// registered a format of the same name first.
import { FormatRegistry } from '@sinclair/typebox'

/** The weekdays a meeting falls on and a digest goes out on. */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const
export type Weekday = (typeof WEEKDAYS)[number]

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/**
 * A real calendar date written YYYY-MM-DD, as RFC 3339's full-date (what JSON Schema's `format: date` means): years
 * 0000-9999 of the proleptic Gregorian calendar, so 2024-02-29 and 2000-02-29 yes, 1900-02-29 and 2026-02-30 no. Pure
 * arithmetic: `Date.UTC` would read years 0-99 as 1900-1999.
 */
export function isCalendarDate(value: string): boolean {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(value)
  if (!m) return false
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  if (mo < 1 || mo > 12 || d < 1) return false
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)
  return d <= (mo === 2 && leap ? 29 : DAYS_IN_MONTH[mo - 1])
}

FormatRegistry.Set('date', isCalendarDate)

/**
 * An email address as the service accepts it: a local part, an @, and a domain name with a dot. Written once for
 * both sides: browsers take it as an input's `pattern` (compiled with the `v` flag, hence the escapes), and the
 * server compiles the same text.
 */
export const EMAIL_INPUT_PATTERN =
  "[A-Za-z0-9!#$%&'*+\\/=?^_`\\{\\|\\}~\\-]+(?:\\.[A-Za-z0-9!#$%&'*+\\/=?^_`\\{\\|\\}~\\-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9\\-]*[A-Za-z0-9])?\\.)+[A-Za-z0-9](?:[A-Za-z0-9\\-]*[A-Za-z0-9])?"
export const EMAIL_PATTERN = new RegExp(`^(?:${EMAIL_INPUT_PATTERN})$`, 'v')

FormatRegistry.Set('email', (value) => EMAIL_PATTERN.test(value))

const TIMESTAMP = /^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(\.[0-9]+)?)?(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))$/
const FIRST_MS = new Date(0).setUTCFullYear(0, 0, 1) // 0000-01-01T00:00:00Z (Date.UTC would read year 0 as 1900)
const LAST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999)

/**
 * The moment (epoch milliseconds) a timestamp names, or null when it names none. RFC 3339's date-time, strictly: a
 * real calendar date, hours 00-23, minutes 00-59, offsets up to ±23:59, `t` and `z` in either case. So
 * 2027-02-30 and T24:00 are refused rather than rolled over as `Date.parse` does. One leniency, kept from before:
 * seconds may be left out (`18:00Z`, what a browser's time field gives). One strictness beyond the RFC: the leap
 * second :60 is refused, since JavaScript time has none and values some features keep as sent must stay readable.
 */
export function instantOf(value: string): number | null {
  const m = TIMESTAMP.exec(value)
  if (!m || !isCalendarDate(m[1])) return null
  const [hour, minute, second] = [Number(m[2]), Number(m[3]), Number(m[4] ?? 0)]
  const [offsetHours, offsetMinutes] = [Number(m[7] ?? 0), Number(m[8] ?? 0)]
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return null
  const day = new Date(0)
  day.setUTCFullYear(Number(m[1].slice(0, 4)), Number(m[1].slice(5, 7)) - 1, Number(m[1].slice(8, 10)))
  const fraction = Number(`${m[5]?.slice(1) ?? ''}000`.slice(0, 3)) // milliseconds; finer digits dropped
  const offset = (m[6] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000
  const ms = day.getTime() + ((hour * 60 + minute) * 60 + second) * 1000 + fraction - offset
  return ms >= FIRST_MS && ms <= LAST_MS ? ms : null
}

/** What a refused timestamp is told, after its field's name. */
export const TIMESTAMP_HINT = 'must be a real date and time in RFC 3339, e.g. 2026-12-05T18:00:00Z'

FormatRegistry.Set('date-time', (value) => instantOf(value) !== null)
