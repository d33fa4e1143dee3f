// The edge of the app, as Elysia lifecycle hooks every request meets: before routing, a readable path (400 otherwise)
// and for the admin API and its docs the credential (401 without one, 403 from a network it may not be used from) and
// the CSRF rule for browser writes; on the answer, whatever gave it, the request id, the security headers and no
// caching of admin answers unless the route says; after it is sent, one request log line.
import { Elysia } from 'elysia'
import { type AuthContext, type Caller, authenticate } from '../auth/credential.ts'
import { badRequest, forbidden, unauthorized } from '../errors.ts'
import type { Logger } from '../ops/log.ts'
import { requestOrigin, requestPath } from './request-path.ts'

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** Paths that need a credential: the admin API and its docs. */
export const isAdminPath = (path: string) => path === '/api/admin' || path.startsWith('/api/admin/')
export const isDocsPath = (path: string) => path === '/api/docs' || path.startsWith('/api/docs/')
/** The public catalog, which answers CORS and keeps a rate limit per address (see catalog/edge.ts). */
export const isCatalogPath = (path: string) => path === '/api/catalog' || path.startsWith('/api/catalog/')

/**
 * RFC 8058's one-click unsubscribe: a mail provider posts it from its own servers or the reader's browser, so it may
 * come cross-site. The only credential-less write that may: the token in the path is the proof, and stopping
 * non-urgent mail is all it can do.
 */
const isOneClickUnsubscribe = (request: Request, path: string) => request.method === 'POST' && /^\/api\/unsubscribe\/[^/]+$/.test(path)

/** Where a query parameter a route does not take, or one sent twice, is refused (422) rather than ignored. */
export const takesOnlyKnownParameters = (path: string) => isAdminPath(path) || isCatalogPath(path)

/** A request id the client sent is kept when it is 1 to 128 of these characters; anything else gets a new one. */
const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/
const requestId = (sent: string | null) => (sent !== null && REQUEST_ID.test(sent) ? sent : crypto.randomUUID())

/** On every answer: no MIME sniffing, no referrer to other sites. */
const SECURITY_HEADERS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'same-origin' } as const

/** The status an answer went out with: a route's Response's, else what `set` says (the error hook puts a refusal's there). */
const statusOf = (answer: unknown, set: { status?: number | string }) =>
  answer instanceof Response ? answer.status : typeof set.status === 'number' ? set.status : 200

/**
 * Adds header fields to an answer: to the Response itself when it is one, which Elysia then sends as it is, else to
 * `set`, from which Elysia makes the Response (a refusal the error hook answers, a plain value). `cache-control` is
 * added only where the answer has none: a route may say its own.
 */
export function addToAnswer(answer: unknown, set: { headers: Record<string, unknown> }, fields: Record<string, string>) {
  if (!(answer instanceof Response)) {
    for (const name in fields) set.headers[name] ??= fields[name]
    return
  }
  for (const name in fields) if (name !== 'cache-control' || !answer.headers.has(name)) answer.headers.set(name, fields[name])
}

/** The fields every answer carries: its request id, the security headers, and for the guarded paths no caching. */
function fieldsFor(request: Request, requestId: string): Record<string, string> {
  const path = requestPath(request)
  const guarded = path !== null && (isAdminPath(path) || isDocsPath(path))
  return guarded
    ? { 'x-request-id': requestId, ...SECURITY_HEADERS, 'cache-control': 'no-store' }
    : { 'x-request-id': requestId, ...SECURITY_HEADERS }
}

export interface EdgeOptions {
  auth: AuthContext
  /** Reads a request's client address (the peer, or the proxy's header from a trusted proxy). */
  addressOf: (request: Request) => string | null
  log: Logger | null
}

export function edge({ auth, addressOf, log }: EdgeOptions) {
  const ownOrigin = new URL(auth.env.publicBaseUrl).origin

  /** The CSRF rule: a browser-driven write must come from our own pages; keys and the break-glass token are
   * headers a browser never adds by itself, and a write with neither Origin nor Sec-Fetch-Site is a script. */
  const refuseCrossSite = (request: Request, caller: Caller | null) => {
    if (!UNSAFE.has(request.method) || caller?.via === 'key' || caller?.via === 'break_glass') return
    const origin = request.headers.get('origin')
    if (origin && origin !== ownOrigin && origin !== requestOrigin(request))
      throw forbidden('Cross-site request refused (Origin does not match this site)')
    if (request.headers.get('sec-fetch-site') === 'cross-site') throw forbidden('Cross-site request refused (Sec-Fetch-Site: cross-site)')
  }

  /** Who may use a guarded path: no credential is 401, and the docs need a signed-in leader or above. */
  const admit = (request: Request, path: string, caller: Caller | null) => {
    if (!caller) throw unauthorized()
    if (isDocsPath(path) && (caller.via !== 'session' || !caller.capabilities.has('api:docs')))
      throw forbidden('The API docs need a signed-in leader, admin or owner')
    refuseCrossSite(request, caller)
    return caller
  }

  return (
    new Elysia({ name: 'edge' })
      // Set for each request by `arrive` below: who is asking (null outside the guarded paths), since when, its id.
      .decorate({ caller: null as Caller | null, arrivedAt: 0, requestId: '-' })
      // Async, so Elysia awaits it whatever its source looks like: a credential may need the database.
      .onRequest(async function arrive(context) {
        const { request } = context
        context.arrivedAt = performance.now()
        context.requestId = requestId(request.headers.get('x-request-id'))
        const path = requestPath(request)
        if (path === null) throw badRequest('The request URL or its Host header cannot be read')
        if (!isAdminPath(path) && !isDocsPath(path)) {
          if (!isOneClickUnsubscribe(request, path)) refuseCrossSite(request, null)
          return
        }
        context.caller = admit(request, path, await authenticate(auth, request, addressOf))
      })
      // A route's or a page's Response gets them on the way out; a refusal from the error hook, in `set`.
      .mapResponse({ as: 'global' }, function dress({ request, responseValue, set, requestId }) {
        addToAnswer(responseValue, set, fieldsFor(request, requestId))
      })
      .onError({ as: 'global' }, function dressRefusal({ request, set, requestId }) {
        addToAnswer(null, set, fieldsFor(request, requestId))
      })
      .onAfterResponse({ as: 'global' }, function logLine({ request, set, responseValue, caller, arrivedAt, requestId }) {
        log?.request(request.method, request.url, statusOf(responseValue, set), arrivedAt, caller?.via ?? 'none', requestId)
      })
      .as('global')
  )
}
