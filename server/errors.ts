// The one error model: every refusal is `{detail: string}` in plain words, plus named fields where a client needs
// more (the live announcements with a full live cap). Handlers throw; one place turns errors into answers.
import { Type as t } from '@sinclair/typebox'

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail)
  }

  get body() {
    return { ...this.extra, detail: this.detail }
  }
}

/** The body of every refusal, documented once and referenced by every operation. */
export const ErrorBody = t.Object(
  { detail: t.String({ description: 'What went wrong, in plain words; a field problem starts with the field name' }) },
  { $id: 'Error', additionalProperties: true, examples: [{ detail: 'ends_at: must be after starts_at' }] },
)

/** How a 401 tells clients which credential to send (RFC 9110 asks every 401 for one). */
export const WWW_AUTHENTICATE = 'Bearer realm="site"'

export const badRequest = (detail: string) => new HttpError(400, detail)
export const unauthorized = (detail = 'Sign in or send a valid credential') =>
  new HttpError(401, detail, {}, { 'www-authenticate': WWW_AUTHENTICATE })
export const forbidden = (detail = 'Not allowed') => new HttpError(403, detail)
export const notFound = (detail = 'Not found') => new HttpError(404, detail)
export const conflict = (detail: string, extra: Record<string, unknown> = {}) => new HttpError(409, detail, extra)
export const gone = (detail: string) => new HttpError(410, detail)
export const unprocessable = (detail: string) => new HttpError(422, detail)
export const badGateway = (detail: string) => new HttpError(502, detail)
export const tooMany = (detail: string, retryAfterSeconds: number) =>
  new HttpError(429, detail, {}, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) })
