// String formats the schemas rely on, registered here explicitly rather than left to whichever library
// registered a format of the same name first.
import { FormatRegistry } from '@sinclair/typebox'

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

/** A date and time as the service writes them: ISO 8601 with an offset. */
FormatRegistry.Set(
  'date-time',
  (value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value)),
)
