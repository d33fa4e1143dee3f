// The one error model: every refusal is `{detail, code}` — what went wrong in plain words, and a stable snake_case
// code a client can branch on — plus `errors [{field, code, detail}]` on a 422 that found problems with fields, and
// named fields where a client needs more (the live announcements with a full live cap). Handlers throw; one place
// turns errors into answers.
import { type Static, Type as t } from '@sinclair/typebox'

/** The code of a refusal that names nothing more specific: one per status. */
export const STATUS_CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  410: 'gone',
  412: 'precondition_failed',
  413: 'body_too_large',
  415: 'unsupported_media_type',
  422: 'validation_failed',
  428: 'precondition_required',
  429: 'rate_limited',
  500: 'internal_error',
  502: 'upstream_failed',
  503: 'unavailable',
  507: 'disk_full',
}

export const FieldProblem = t.Object(
  {
    field: t.String({
      description:
        'Where: a dotted path into the body, query or path (`units.0.unit_id`); `body`, `query` or `path` for the part as a whole; empty for the request as a whole',
    }),
    code: t.String({ description: 'What kind of problem, snake_case (`required`, `unknown_field`, `too_long`, `invalid`…)' }),
    detail: t.String({ description: 'The problem in plain words, starting with the field' }),
  },
  { additionalProperties: false },
)
export type FieldProblem = Static<typeof FieldProblem>

export interface Refusal {
  /** The stable code; the status's own code when not given. */
  code?: string
  /** More named fields of the body. */
  extra?: Record<string, unknown>
  headers?: Record<string, string>
  /** Every problem with a field, for a 422. */
  errors?: FieldProblem[]
}

export class HttpError extends Error {
  readonly code: string
  readonly extra: Record<string, unknown>
  readonly headers: Record<string, string>
  readonly errors: FieldProblem[] | undefined
  constructor(
    readonly status: number,
    readonly detail: string,
    { code, extra = {}, headers = {}, errors }: Refusal = {},
  ) {
    super(detail)
    this.code = code ?? STATUS_CODES[status] ?? 'error'
    this.extra = extra
    this.headers = headers
    this.errors = errors
  }

  get body() {
    return { ...this.extra, detail: this.detail, code: this.code, ...(this.errors ? { errors: this.errors } : {}) }
  }
}

/** The body of every refusal, documented once and referenced by every operation. */
export const ErrorBody = t.Object(
  {
    detail: t.String({ description: 'What went wrong, in plain words; a field problem starts with the field name' }),
    code: t.String({ description: 'A stable snake_case code to branch on; each operation lists the codes it may answer per status' }),
    errors: t.Optional(t.Array(FieldProblem, { description: 'On a 422: every problem found, not only the first' })),
  },
  {
    $id: 'Error',
    additionalProperties: true,
    examples: [
      {
        detail: 'ends_at: must be after starts_at',
        code: 'validation_failed',
        errors: [{ field: 'ends_at', code: 'invalid', detail: 'ends_at: must be after starts_at' }],
      },
    ],
  },
)

/** How a 401 tells clients which credential to send (RFC 9110 asks every 401 for one). */
export const WWW_AUTHENTICATE = 'Bearer realm="site"'

export const badRequest = (detail: string, code?: string) => new HttpError(400, detail, { code })
export const unauthorized = (detail = 'Sign in or send a valid credential') =>
  new HttpError(401, detail, { headers: { 'www-authenticate': WWW_AUTHENTICATE } })
export const forbidden = (detail = 'Not allowed', code?: string) => new HttpError(403, detail, { code })
export const notFound = (detail = 'Not found', code?: string) => new HttpError(404, detail, { code })
export const conflict = (detail: string, code?: string, extra: Record<string, unknown> = {}) => new HttpError(409, detail, { code, extra })
export const gone = (detail: string, code?: string) => new HttpError(410, detail, { code })
/**
 * A 422 about one field or the request as a whole (`field` empty). The field is the one the words start with
 * ("ends_at: must be after starts_at") unless named.
 */
export function unprocessable(detail: string, code?: string, field?: string) {
  const named = field ?? /^([A-Za-z_][\w.-]*): /.exec(detail)?.[1] ?? ''
  return new HttpError(422, detail, { code, errors: [{ field: named, code: code ?? 'invalid', detail }] })
}
/** The disk holding the database is full: nothing was written, and retrying helps once space is freed. */
export const insufficientStorage = (detail: string) => new HttpError(507, detail)
export const badGateway = (detail: string, code?: string) => new HttpError(502, detail, { code })
export const tooMany = (detail: string, retryAfterSeconds: number, code?: string) =>
  new HttpError(429, detail, { code, headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) } })
