// Every request comes in and every answer goes out here (Elysia's `wrap`, around the one handler Elysia gives Bun:
// the app routes with Elysia's router, see app.ts). On the way in: a readable path (400 otherwise), the client
// address, and for the admin API and its docs the credential (401 without one, 403 from a network it may not be
// used from), then the CSRF rule for browser writes; a public GET its route answered from a cache before is
// answered from there (see `cachedBody`). The public catalog has its own edge here: CORS for browser tools and a rate
// limit per address, counted before a cached answer is given. On the way out: the request id, the security headers and
// one request log line. A public request takes no promise here, so the cached catalog answers cost little more than a
// bare server's.
import type { Server } from 'bun'
import type { HigherOrderFunction } from 'elysia/types'
import { type AuthContext, type Caller, authenticate } from '../auth/credential.ts'
import { badRequest, forbidden, HttpError, tooMany, unauthorized } from '../errors.ts'
import type { Logger } from '../ops/log.ts'
import { WindowLimiter } from '../rate-limit.ts'
import { getSetting, loadedSetting, SETTINGS } from '../settings/registry.ts'
import { refusal } from './error-response.ts'
import { requestOrigin, requestPath, requestTarget } from './request-path.ts'
import { Repeats, type RequestState, requestState } from './request-state.ts'

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** Paths that need a credential: the admin API and its docs. */
export const isAdminPath = (path: string) => path === '/api/admin' || path.startsWith('/api/admin/')
export const isDocsPath = (path: string) => path === '/api/docs' || path.startsWith('/api/docs/')
/** The public catalog, which answers CORS and keeps a rate limit per address. */
export const isCatalogPath = (path: string) => path === '/api/catalog' || path.startsWith('/api/catalog/')

/** A request id the client sent is kept when it is 1 to 128 of these characters; anything else gets a new one. */
const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/
const requestId = (sent: string | null) => (sent !== null && REQUEST_ID.test(sent) ? sent : crypto.randomUUID())

/**
 * Any page may read the catalog from a browser (no credential is read there, so nothing leaks): every answer under
 * /api/catalog, refusals and 304s included, allows any origin and shows the fields a client needs.
 */
const CATALOG_CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag, Link, X-Request-Id, RateLimit, RateLimit-Policy, Retry-After',
} as const
/** The catalog's one window: requests per address per minute, as the setting catalog.per_minute says. */
const CATALOG_WINDOW_S = 60

type Fetch = (request: Request) => Response | Promise<Response>

/** On every answer: no MIME sniffing, no referrer to other sites. */
const SECURITY_HEADERS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'same-origin' } as const

/** Answers made by `dressedResponse`, which carry the security headers already. */
const dressed = new WeakSet<Response>()

/** Response options that carry the security headers besides `headers`; made once for an answer given often. */
export type DressedInit = ResponseInit & { readonly headers: Headers; readonly dressed: true }
export const dressedInit = (status: number, headers: Record<string, string>): DressedInit => ({
  status,
  headers: new Headers({ ...headers, ...SECURITY_HEADERS }),
  dressed: true,
})

/**
 * An answer built with the security headers in place (a cached catalog 304, a route's JSON): the way out then
 * leaves its headers alone, since reading a Response's headers back costs Bun more than writing them in. An
 * answer under /api/admin must carry `cache-control` itself.
 */
export function dressedResponse(body: BodyInit | null, init: DressedInit): Response {
  const response = new Response(body, init)
  dressed.add(response)
  return response
}

export interface FrontDoorOptions {
  auth: AuthContext
  /** The listening server, for the peer address; null when the app is driven without a socket. */
  server: () => Server<unknown> | null
  log: Logger | null
  /** What an unexpected error becomes (the app's one error shape). */
  internalError: (error: unknown, request: Request) => Response
}

export function frontDoor({ auth, server, log, internalError }: FrontDoorOptions): HigherOrderFunction {
  const ownOrigin = new URL(auth.env.publicBaseUrl).origin

  /** The CSRF rule: a browser-driven write must come from our own pages; keys and the break-glass token are
   * headers a browser never adds by itself, and a write with neither Origin nor Sec-Fetch-Site is a script. */
  const crossSite = (request: Request, caller: Caller | null): HttpError | null => {
    if (!UNSAFE.has(request.method) || caller?.via === 'key' || caller?.via === 'break_glass') return null
    const origin = request.headers.get('origin')
    if (origin && origin !== ownOrigin && origin !== requestOrigin(request))
      return forbidden('Cross-site request refused (Origin does not match this site)')
    if (request.headers.get('sec-fetch-site') === 'cross-site') return forbidden('Cross-site request refused (Sec-Fetch-Site: cross-site)')
    return null
  }

  const readAddress = (request: Request) => auth.rules.clientAddress(server()?.requestIP(request)?.address ?? null, request.headers)

  /** A refused credential is an answer; anything else is an error for the caller of this. */
  const refused = (error: unknown): Response => {
    if (error instanceof HttpError) return refusal(error)
    throw error
  }

  const admitCaller = (fetch: Fetch, request: Request, state: RequestState, caller: Caller | null): Response | Promise<Response> => {
    state.caller = caller
    if (!caller) return refusal(unauthorized())
    if (isDocsPath(state.path) && (caller.via !== 'session' || !caller.capabilities.has('api:docs')))
      return refusal(forbidden('The API docs need a signed-in leader, admin or owner'))
    const crossed = crossSite(request, caller)
    return crossed ? refusal(crossed) : fetch(request)
  }

  const admitGuarded = (fetch: Fetch, request: Request, state: RequestState): Response | Promise<Response> => {
    let caller: Caller | null | Promise<Caller | null>
    try {
      caller = authenticate(auth, request, requestState.address)
    } catch (error) {
      return refused(error)
    }
    if (!(caller instanceof Promise)) return admitCaller(fetch, request, state, caller)
    return caller.then((found) => admitCaller(fetch, request, state, found), refused)
  }

  const repeats = new Repeats()

  /** The answer to a CORS preflight (or any OPTIONS) under /api/catalog: what a browser may send, cached a day. */
  const preflight = dressedInit(204, {
    ...CATALOG_CORS,
    'access-control-allow-methods': 'GET, HEAD, OPTIONS',
    'access-control-allow-headers': 'If-None-Match, Accept-Encoding, Cache-Control, X-Request-Id',
    'access-control-max-age': '86400',
    allow: 'GET, HEAD, OPTIONS',
  })
  const catalogHits = new WindowLimiter(CATALOG_WINDOW_S * 1000)
  let perMinute = SETTINGS['catalog.per_minute'].default as number
  let reading = false
  /** catalog.per_minute without waiting: the settings read in the last seconds, else the last value while they are read again. */
  const catalogLimit = (): number => {
    const loaded = loadedSetting(auth.db, 'catalog.per_minute')
    if (loaded !== undefined) return (perMinute = loaded)
    if (!reading) {
      reading = true
      getSetting(auth.db, 'catalog.per_minute')
        .then((value) => void (perMinute = value))
        .catch(() => {})
        .finally(() => (reading = false))
    }
    return perMinute
  }
  // The fields of the IETF httpapi draft (draft-ietf-httpapi-ratelimit-headers-10, "RateLimit header fields for
  // HTTP"): RateLimit-Policy names a policy with its quota `q` over a window of `w` seconds; RateLimit gives, for that
  // policy, the quota left `r` and the seconds `t` until it is restored.
  let policyFor = -1
  let policy = ''
  const policyOf = (limit: number) => {
    if (limit !== policyFor) [policyFor, policy] = [limit, `"default";q=${limit};w=${CATALOG_WINDOW_S}`]
    return policy
  }

  const admit = (fetch: Fetch, request: Request, url: string, path: string | null): Response | Promise<Response> => {
    if (path === null) return refusal(badRequest('The request URL or its Host header cannot be read'))
    const guarded = isAdminPath(path) || isDocsPath(path)
    // A public GET its route answered from a cache before (a bot's conditional request) is answered from there.
    const publicGet = !guarded && request.method === 'GET'
    if (publicGet) {
      const again = repeats.get(requestTarget(url))?.(request)
      if (again) return again
    }
    const state: RequestState = { path, caller: null, address: undefined, readAddress, repeats: publicGet ? repeats : null }
    requestState.set(request, state)
    if (guarded) return admitGuarded(fetch, request, state)
    const crossed = crossSite(request, null)
    return crossed ? refusal(crossed) : fetch(request)
  }

  /**
   * The request id, the security headers, and no caching of admin answers unless the route says; under /api/catalog
   * CORS and the rate limit (`rate`, the RateLimit value; null for a preflight, which is not counted).
   */
  const finish = (
    request: Request,
    url: string,
    path: string | null,
    id: string,
    rate: string | null,
    started: number,
    response: Response,
  ): Response => {
    // One write for every answer, dressed ones too: the id differs per request, so it cannot be made up front.
    const headers = response.headers
    headers.set('x-request-id', id)
    if (!dressed.has(response)) {
      for (const name in SECURITY_HEADERS) headers.set(name, SECURITY_HEADERS[name as keyof typeof SECURITY_HEADERS])
      if (path !== null && (isAdminPath(path) || isDocsPath(path)) && !headers.has('cache-control'))
        headers.set('cache-control', 'no-store')
    }
    if (rate !== null) {
      for (const name in CATALOG_CORS) headers.set(name, CATALOG_CORS[name as keyof typeof CATALOG_CORS])
      headers.set('ratelimit', rate)
      headers.set('ratelimit-policy', policy)
    }
    log?.request(request.method, url, response.status, started, requestState.of(request).caller?.via ?? 'none', id)
    return response
  }

  const wrap = (fetch: Fetch): Fetch => {
    return (request) => {
      const started = log ? performance.now() : 0
      const url = request.url
      const path = requestPath(request, url)
      const id = requestId(request.headers.get('x-request-id'))
      let rate: string | null = null
      let answer: Response | Promise<Response>
      try {
        if (path !== null && isCatalogPath(path)) {
          if (request.method === 'OPTIONS') answer = dressedResponse(null, preflight)
          else {
            const limit = catalogLimit()
            policyOf(limit)
            const left = catalogHits.hit(readAddress(request) ?? 'unknown', limit)
            const reset = catalogHits.resetSeconds()
            rate = `"default";r=${left < 0 ? 0 : left};t=${reset}`
            answer =
              left < 0
                ? refusal(tooMany(`More than ${limit} catalog requests this minute from this address; wait as Retry-After says`, reset))
                : admit(fetch, request, url, path)
          }
        } else answer = admit(fetch, request, url, path)
      } catch (error) {
        answer = internalError(error, request)
      }
      if (!(answer instanceof Promise)) return finish(request, url, path, id, rate, started, answer)
      return answer.then(
        (response) => finish(request, url, path, id, rate, started, response),
        (error) => finish(request, url, path, id, rate, started, internalError(error, request)),
      )
    }
  }
  // Elysia asks for the wrapped handler on every request (`hoc(map, request)`): it is made once.
  let inner: Fetch | null = null
  let wrapped: Fetch | null = null
  const hoc = (fetch: Fetch): Fetch => {
    if (fetch !== inner) {
      inner = fetch
      wrapped = wrap(fetch)
    }
    return wrapped!
  }
  // Elysia types the wrapped handler loosely (a Function); it is the fetch handler, request in, answer out.
  return hoc as unknown as HigherOrderFunction
}
