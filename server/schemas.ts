// Schemas shared by several features. `t` is plain TypeBox: a JSON body is never coerced ("30" is not 30);
// path and query strings are converted where a route's schema asks for a number. Messages for patterns and
// formats are attached with `withMessage`, so refusals say what is wanted in words.
import { CloneType, type TObject, Type as t, type TSchema } from '@sinclair/typebox'
// `format: date` is a real calendar date, `date-time` a real RFC 3339 moment, `email` an address with a domain
import { instantOf, TIMESTAMP_HINT, WEEKDAYS } from './formats.ts'
import { unprocessable } from './errors.ts'
import { multiline, withMessage } from './http/validate.ts'

export { multiline, t, withMessage }

/** A numeric id in a path; one that is not a number is no such thing (404). */
export const Id = t.Integer({ minimum: 1, description: 'The numeric id', examples: [42] })
export const IdParams = t.Object({ id: Id })

/** The schema, or null. */
export const Nullable = <S extends TSchema>(schema: S) => t.Union([schema, t.Null()])
/** The schema keyword that marks an answer's field as a one-time secret (see `OneTime`). */
export const ONE_TIME = 'x-one-time'
/**
 * A field of an answer that is a one-time secret (a new key, an invite or reset link, recovery codes, an authenticator
 * secret): it is in the first answer only. The copy kept for a retry with the same Idempotency-Key leaves it out
 * (server/http/idempotency.ts), so it never sits in the database or its backups and a replay never shows it again.
 */
export const OneTime = <S extends TSchema>(schema: S) =>
  t.Optional(
    CloneType(schema, {
      [ONE_TIME]: true,
      description: `${schema.description ? schema.description.replace(/\.?$/, '. ') : ''}Left out when the answer is replayed for an Idempotency-Key: a secret is shown once.`,
    }),
  )
/** A field that may be left out or sent as null. */
export const OptionalNullable = <S extends TSchema>(schema: S) => t.Optional(Nullable(schema))

/** One line of text of at most `max` characters. */
export const Line = (max: number, options: { minLength?: number; description?: string; examples?: string[] } = {}) =>
  t.String({ maxLength: max, ...options })
/** Text that may run over several lines. */
export const Lines = (max: number, options: { minLength?: number; description?: string; examples?: string[] } = {}) =>
  multiline(t.String({ maxLength: max, ...options }))

/**
 * A pattern refusing control, line-separator and format characters (Unicode Cc, Cf, Zl, Zp) and the other invisible
 * ones (default-ignorable: fillers, variation selectors, tags), which would disguise text where it is shown. JSON
 * Schema patterns have no `u` flag, so the characters past U+FFFF are spelled as surrogate pairs (the allowed ones,
 * without a lookahead, so test generators can make text that fits).
 */
export const NO_HIDDEN_CHARACTERS = String.raw`^(?:[^\u0000-\u001f\u007f-\u009f\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb\ud800-\udfff]|[\ud800-\ud803\ud805-\ud80c\ud80e-\ud82e\ud830-\ud833\ud835-\udb3f\udb44-\udbff][\udc00-\udfff]|\ud804[\udc00-\udcbc\udcbe-\udccc\udcce-\udfff]|\ud80d[\udc00-\udc2f\udc40-\udfff]|\ud82f[\udc00-\udc9f\udca4-\udfff]|\ud834[\udc00-\udd72\udd7b-\udfff])*$`

export const Email = withMessage(
  t.String({ format: 'email', maxLength: 254, examples: ['robin.hale@example.org'] }),
  'must be an email address',
)
export const Password = withMessage(
  t.String({ minLength: 8, maxLength: 200, examples: ['correct horse battery'] }),
  'must be 8 to 200 characters',
)

export const nowIso = () => new Date().toISOString()

/** An RFC 3339 timestamp with an offset (`Z` accepted), as the API takes them; see instantOf for what is real. */
export const Timestamp = withMessage(
  t.String({ format: 'date-time', description: 'RFC 3339 with an offset', examples: ['2026-12-01T18:00:00-06:00'] }),
  TIMESTAMP_HINT,
)

/** Milliseconds of a Timestamp value; 422 naming the field when it is not a real moment. */
export function parseTimestamp(field: string, value: string): number {
  const ms = instantOf(value)
  if (ms === null) throw unprocessable(`${field}: ${TIMESTAMP_HINT}`)
  return ms
}

export const DateString = withMessage(t.String({ format: 'date', examples: ['2026-12-05'] }), 'must be a real date written YYYY-MM-DD')

/** A 24-hour time HH:MM. */
export const Time24 = withMessage(
  t.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', examples: ['18:30'] }),
  'must be a 24-hour time HH:MM',
)

/** One of a list of words, refused in words ("must be pack, troop or both"). */
export const OneOf = <V extends string>(values: readonly V[], options: { description?: string; examples?: V[] } = {}) =>
  t.Union(
    values.map((v) => t.Literal(v)),
    options,
  )

export const Weekday = OneOf(WEEKDAYS)

/**
 * A body that takes exactly one of several object shapes (a household from its fields, or from a lead): published as
 * `oneOf`; a value that fits none is explained by the shape it was meant for (see validate.ts).
 */
export const OneShapeOf = <S extends TObject[]>(shapes: [...S], options: { description?: string; examples?: unknown[] } = {}) =>
  t.Union(shapes, { ...options, 'x-one-of': true })

/** A timestamp the service wrote (ISO 8601 in UTC). */
export const Instant = t.String({ format: 'date-time', examples: ['2026-11-23T18:04:05.000Z'] })
