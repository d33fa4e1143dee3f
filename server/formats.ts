// String formats the schemas rely on, registered here explicitly rather than left to whichever library
// registered a format of the same name first.
import { FormatRegistry } from '@sinclair/typebox'

/** A real calendar date written YYYY-MM-DD (2024-02-29 yes, 2026-02-30 no). */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!m) return false
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const date = new Date(Date.UTC(y, mo - 1, d))
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d
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
