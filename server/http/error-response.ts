// The one place errors become answers: `{detail}` with the right status for everything thrown, a 405 with
// `Allow` for a known path asked with another method, a 507 when the disk holding the database is full, and a 500
// whose stack stays in the server log.
import { Elysia } from 'elysia'
import { HttpError, insufficientStorage, notFound } from '../errors.ts'
import { DISK_FULL, isDiskFull } from '../ops/disk.ts'
import { errorText, logEvent } from '../ops/log.ts'
import { requestPath } from './request-path.ts'

const json = (status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers })

/** The answer a refusal gives: its status, `{detail}` body and headers. */
export const refusal = (error: HttpError): Response => json(error.status, error.body, error.headers)

/** No route answers this method here: 405 with `Allow` when the path has other methods, else 404. */
export function notServed(method: string, path: string, allowed: (path: string) => string[]): HttpError {
  const methods = allowed(path)
  if (!methods.length) return notFound()
  return new HttpError(405, `${method} is not served here; use ${methods.join(' or ')}`, { headers: { allow: methods.join(', ') } })
}

export function errorResponse(
  code: string | number,
  error: unknown,
  request: Request,
  allowed: (path: string) => string[],
  databasePath?: string,
): Response {
  if (error instanceof HttpError) return refusal(error)
  if (code === 'NOT_FOUND') return errorResponse(code, notServed(request.method, requestPath(request) ?? '', allowed), request, allowed)
  if (isDiskFull(error, databasePath)) {
    // The real error, by its code, for whoever reads the log; the caller gets the sentence that says what to do.
    const sqlite = (error as { code?: string }).code
    logEvent('disk.full', {
      ok: false,
      message: `${request.method} ${requestPath(request) ?? '-'} wrote nothing: ${sqlite}: ${errorText(error)}. ${DISK_FULL}`,
    })
    return refusal(insufficientStorage(DISK_FULL))
  }
  console.error(`500 on ${request.method} ${requestPath(request) ?? request.url}:`, error)
  return json(500, { detail: 'Internal error; it has been logged', code: 'internal_error' })
}

export const errorHandling = (allowed: (path: string) => string[], databasePath?: string) =>
  new Elysia({ name: 'error-handling' }).onError({ as: 'global' }, ({ code, error, request, set }) => {
    const response = errorResponse(code, error, request, allowed, databasePath)
    // Kept in `set` too: after the answer, Elysia hands the log only `set` for a refusal.
    set.status = response.status
    return response
  })
