// Schemas and small helpers shared by several route modules. `t` is plain TypeBox: a JSON body is never
// coerced ("30" is not 30); query strings are converted where the route's schema asks for a number.
import { Type as t } from '@sinclair/typebox'
import './formats.ts' // `format: date` means a real calendar date
import { notFound, unprocessable } from './errors.ts'

export { t }

export const IdParams = t.Object({ id: t.String() })

/** A numeric path id; anything else is a thing that does not exist (404). */
export function parseId(id: string): number {
  if (!/^\d{1,15}$/.test(id)) throw notFound()
  return Number(id)
}

export const Email = t.String({ format: 'email', maxLength: 254, error: 'must be an email address' })
export const Password = t.String({ minLength: 8, maxLength: 200, error: 'must be 8 to 200 characters' })

export const nowIso = () => new Date().toISOString()

/** An ISO 8601 timestamp with an offset (`Z` accepted), as the API takes them. */
export const Timestamp = t.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2})$',
  error: 'must be an ISO 8601 timestamp with an offset, e.g. 2026-12-01T18:00:00-06:00',
})

/** Milliseconds of a Timestamp value; 422 naming the field when it is not a real moment. */
export function parseTimestamp(field: string, value: string): number {
  const ms = Date.parse(value)
  if (Number.isNaN(ms)) throw unprocessable(`${field}: is not a real date and time`)
  return ms
}

export const DateString = t.String({ format: 'date', error: 'must be a real date written YYYY-MM-DD' })

/** A 24-hour time HH:MM. */
export const Time24 = t.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', error: 'must be a 24-hour time HH:MM' })

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const
export const Weekday = t.Union(
  WEEKDAYS.map((d) => t.Literal(d)),
  { error: 'must be a weekday name, monday to sunday' },
)
