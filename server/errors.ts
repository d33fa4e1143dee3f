// The one error type handlers throw; app.ts turns every error into a `{detail}` body.
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : JSON.stringify(detail))
  }
}

export const unauthorized = (detail: unknown = 'Sign in or send a valid credential') => new HttpError(401, detail)
export const forbidden = (detail: unknown = 'Not allowed') => new HttpError(403, detail)
export const notFound = (detail: unknown = 'Not found') => new HttpError(404, detail)
export const conflict = (detail: unknown) => new HttpError(409, detail)
export const gone = (detail: unknown) => new HttpError(410, detail)
export const unprocessable = (detail: unknown) => new HttpError(422, detail)
export const tooMany = (detail: unknown, retryAfterSeconds: number) =>
  new HttpError(429, detail, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) })
