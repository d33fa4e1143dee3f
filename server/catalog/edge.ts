// The catalog's edge, as an Elysia request hook after the app's own (see http/edge.ts): any page may read the catalog
// from a browser (CORS: no credential is read there, so nothing leaks), each address (an IPv6 one by its /64) has a rate limit per minute
// (the setting catalog.per_minute), counted before anything else is answered, and a preflight (OPTIONS) is answered.
import { Elysia } from 'elysia'
import { clientKey } from '../auth/address.ts'
import { tooMany } from '../errors.ts'
import { addToAnswer, isCatalogPath } from '../http/edge.ts'
import { requestPath } from '../http/request-path.ts'
import { WindowLimiter } from '../rate-limit.ts'
import { getSetting, loadedSetting, SETTINGS } from '../settings/registry.ts'
import type { Db } from '../db/client.ts'

/** Every answer under /api/catalog, refusals and 304s included, allows any origin and shows the fields a client needs. */
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag, Link, X-Request-Id, RateLimit, RateLimit-Policy, Retry-After',
} as const
/** What a browser may send, cached a day. */
const PREFLIGHT = {
  'access-control-allow-methods': 'GET, HEAD, OPTIONS',
  'access-control-allow-headers': 'If-None-Match, Accept-Encoding, Cache-Control, X-Request-Id',
  'access-control-max-age': '86400',
  allow: 'GET, HEAD, OPTIONS',
} as const
/** The one window: requests per address per minute. */
const WINDOW_S = 60

export function catalogEdge(db: Db, addressOf: (request: Request) => string | null) {
  const hits = new WindowLimiter(WINDOW_S * 1000)
  let perMinute: number = SETTINGS['catalog.per_minute'].default
  let reading = false
  /** catalog.per_minute without waiting: the settings read in the last seconds, else the last value while they are read again. */
  const limitNow = (): number => {
    const loaded = loadedSetting(db, 'catalog.per_minute')
    if (loaded !== undefined) return (perMinute = loaded)
    if (!reading) {
      reading = true
      getSetting(db, 'catalog.per_minute')
        .then((value) => void (perMinute = value))
        .catch(() => {})
        .finally(() => (reading = false))
    }
    return perMinute
  }

  const preflight = () => new Response(null, { status: 204, headers: PREFLIGHT })
  return (
    new Elysia({ name: 'catalog-edge' })
      // The fields of this request's answer, set by `catalogArrival`: CORS, and unless a preflight the RateLimit fields;
      // null outside the catalog.
      .decorate({ catalogFields: null as Record<string, string> | null })
      .onRequest(function catalogArrival(context) {
        const { request } = context
        const path = requestPath(request)
        if (path === null || !isCatalogPath(path)) return
        if (request.method === 'OPTIONS') return void (context.catalogFields = CORS)
        // The fields of the IETF httpapi draft (draft-ietf-httpapi-ratelimit-headers-10): RateLimit-Policy names a policy
        // with its quota `q` over a window of `w` seconds; RateLimit gives the quota left `r` and the seconds `t` until
        // it is restored.
        const limit = limitNow()
        const left = hits.hit(clientKey(addressOf(request)) ?? 'unknown', limit)
        const reset = hits.resetSeconds()
        context.catalogFields = {
          ...CORS,
          'ratelimit-policy': `"default";q=${limit};w=${WINDOW_S}`,
          ratelimit: `"default";r=${left < 0 ? 0 : left};t=${reset}`,
        }
        if (left < 0) throw tooMany(`More than ${limit} catalog requests this minute from this address; wait as Retry-After says`, reset)
      })
      .mapResponse({ as: 'global' }, function catalogDress({ responseValue, set, catalogFields }) {
        if (catalogFields !== null) addToAnswer(responseValue, set, catalogFields)
      })
      .onError({ as: 'global' }, function catalogDressRefusal({ set, catalogFields }) {
        if (catalogFields !== null) addToAnswer(null, set, catalogFields)
      })
      .options('/api/catalog', preflight)
      .options('/api/catalog/*', preflight)
  )
}
