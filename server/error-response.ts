// The one error shape: every failure becomes `{detail}` with the right status; stacks stay in the log.
import { HttpError } from './errors.ts'
import { requestPath } from './http/request-path.ts'

const json = (status: number, detail: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ detail }), { status, headers: { 'content-type': 'application/json', ...headers } })

function validationDetail(error: any): string {
  const first = error.valueError ?? error.all?.[0]
  const where = error.type === 'body' ? 'body' : error.type
  if (!first) return `Invalid ${where}`
  const field = String(first.path ?? '')
    .replace(/^\//, '')
    .replaceAll('/', '.')
  const message = first.schema?.error ?? first.message
  return field ? `${field}: ${message}` : `Invalid ${where}: ${message}`
}

export function errorResponse(code: string | number, error: unknown, request: Request): Response {
  if (error instanceof HttpError) return json(error.status, error.detail, error.headers)
  switch (code) {
    case 'VALIDATION':
      if ((error as any).type === 'response') break
      return json(422, validationDetail(error))
    case 'PARSE':
      // Our parser throws HttpError (handled above); Elysia wraps some errors of a parse hook as PARSE.
      if ((error as any)?.cause instanceof HttpError) return errorResponse(code, (error as any).cause, request)
      return json(400, 'Malformed request body (expected JSON or a form post)')
    case 'NOT_FOUND':
      return json(404, 'Not found')
    case 'INVALID_COOKIE_SIGNATURE':
      return json(401, 'Invalid cookie')
  }
  // Elysia builds its validation message with `${value}`, which throws for a JSON object whose own
  // `toString` is not a function ({"toString": null}): that is still a body that does not fit.
  if (error instanceof TypeError && /mapValueError|new ValidationError/.test(error.stack ?? ''))
    return json(422, 'Invalid request body: a value could not be read')
  const status = (error as any)?.status
  if (typeof status === 'number' && status >= 400 && status < 500) return json(status, (error as any).message || 'Bad request')
  console.error(`500 on ${request.method} ${requestPath(request) ?? request.url}:`, error)
  return json(500, 'Internal error; it has been logged')
}
