// createApp builds the Elysia application: credentials, the file routes, errors, docs and headers.
import { openapi } from '@elysiajs/openapi'
import type { TSchema } from '@sinclair/typebox'
import { Elysia } from 'elysia'
import path from 'node:path'
import { addressRules } from './auth/address.ts'
import { authenticate, type Caller } from './auth/credential.ts'
import { LoginThrottle } from './auth/login-throttle.ts'
import { MirrorQueue } from './leads/mirrors.ts'
import { RateLimiter } from './rate-limit.ts'
import type { Db } from './db/client.ts'
import type { Env } from './env.ts'
import { errorResponse } from './error-response.ts'
import { forbidden, HttpError, notFound, unauthorized } from './errors.ts'
import type { CatalogLoader } from './catalog/loader.ts'
import { type CalendarStore, calendarStoreFor } from './calendar/store.ts'
import type { SiteBuilder } from './site/builder.ts'
import { serveStatic } from './site/static.ts'
import { DEFAULT_BODY_LIMIT, parseBody } from './http/body.ts'
import { requestOrigin, requestPath } from './http/request-path.ts'
import { loadRoutes, type LoadedRoute, type RouteDef, type Services } from './routes.ts'

export interface AppOptions {
  db: Db
  env: Readonly<Env>
  routes?: LoadedRoute[]
  /** Regenerates and serves the public site; without it, pages answer 503 (being built). */
  site?: SiteBuilder
  /** The season catalog loader; its version keys the cached catalog answers. */
  catalog?: CatalogLoader
  /** The CalDAV store; by default the one the environment configures. */
  calendar?: CalendarStore | null
  /** Called when a write changed public data (tests count these). */
  onPublicDataChange?: () => void
}

interface RequestState {
  address: string | null
  caller: Caller | null
}

const NUMBER = /^-?\d{1,16}(\.\d{1,16})?$/

/** Query fields a route types as integer or number. */
function numericQueryFields(schema: TSchema | undefined): string[] {
  return Object.entries((schema?.properties ?? {}) as Record<string, TSchema>)
    .filter(([, s]) => s.type === 'integer' || s.type === 'number')
    .map(([name]) => name)
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
const SCALAR_BUNDLE = path.join(import.meta.dir, '..', 'node_modules', '@scalar', 'api-reference', 'dist', 'browser', 'standalone.js')

/**
 * How the service listens, wherever it is started (main.ts, tests, benchmarks): never Bun's development
 * error page, never sharing the port with another process, and a last-resort `{detail}` for an error
 * that escapes the app.
 */
export const SERVE_OPTIONS = {
  development: false,
  reusePort: false,
  maxRequestBodySize: 16 * 1024 * 1024,
  error(error: Error) {
    console.error('Unhandled error outside the app:', error)
    return Response.json({ detail: 'Internal error; it has been logged' }, { status: 500 })
  },
}

export async function createApp({ db, env, routes, site, catalog, calendar, onPublicDataChange }: AppOptions) {
  const rules = addressRules(env.trustProxy, env.lanCidrs)
  const mirrors = new MirrorQueue(db)
  const services: Services = {
    db,
    env,
    site: site ?? null,
    catalog: catalog ?? null,
    calendar: calendar === undefined ? calendarStoreFor(env) : calendar,
    loginThrottle: new LoginThrottle(),
    joinLimiter: new RateLimiter(5, 10 * 60_000),
    mirrorLead: (leadId) => mirrors.add(leadId),
    publicDataChanged() {
      onPublicDataChange?.()
      site?.request()
    },
  }
  const ownOrigin = new URL(env.publicBaseUrl).origin
  const state = new WeakMap<Request, RequestState>()
  const registry = routes ?? (await loadRoutes())
  // Routes that take more than the default body size say so in their definition.
  const auth = { db, env, rules }
  const largeBodies = new Map(registry.filter((r) => r.def.maxBody).map((r) => [r.path, r.def.maxBody!]))

  const app = new Elysia({ normalize: false })
    .onError(({ code, error, request }) => errorResponse(code, error, request))
    .onRequest(async ({ request, server, set }) => {
      set.headers['x-content-type-options'] = 'nosniff'
      set.headers['referrer-policy'] = 'same-origin'
      const pathname = requestPath(request)
      if (pathname === null) throw new HttpError(400, 'The request URL or its Host header cannot be read')
      const peer = server?.requestIP(request)?.address ?? null
      const address = rules.clientAddress(peer, request.headers.get('x-forwarded-for'))
      const admin = pathname === '/api/admin' || pathname.startsWith('/api/admin/')
      const docs = pathname === '/api/docs' || pathname.startsWith('/api/docs/')
      if (admin || docs) set.headers['cache-control'] = 'no-store'

      const caller = admin || docs ? await authenticate(auth, request, address) : null
      state.set(request, { address, caller })
      if ((admin || docs) && !caller) throw unauthorized()
      if (docs && (caller?.via !== 'session' || !caller.capabilities.has('api:docs')))
        throw forbidden('The API docs need a signed-in leader, admin or owner')

      // CSRF: a browser-driven unsafe request must come from our own pages. Keys and the break-glass token
      // are headers a browser never adds by itself; a write with neither Origin nor Sec-Fetch-Site is a script.
      if (UNSAFE.has(request.method) && caller?.via !== 'key' && caller?.via !== 'break_glass') {
        const origin = request.headers.get('origin')
        if (origin && origin !== ownOrigin && origin !== requestOrigin(request))
          throw forbidden('Cross-site request refused (Origin does not match this site)')
        if (request.headers.get('sec-fetch-site') === 'cross-site')
          throw forbidden('Cross-site request refused (Sec-Fetch-Site: cross-site)')
      }
    })
    .onParse(({ request, contentType, path }) =>
      parseBody(request, (contentType ?? '').trim().toLowerCase(), largeBodies.get(path) ?? DEFAULT_BODY_LIMIT),
    )

  const authorize = (def: RouteDef) => {
    const numeric = numericQueryFields(def.query)
    return ({ request, query }: { request: Request; query: Record<string, unknown> }) => {
      // A query string is text: turn the fields the schema types as numbers into numbers before validation.
      for (const field of numeric) if (typeof query[field] === 'string' && NUMBER.test(query[field])) query[field] = Number(query[field])
      if (def.auth === 'public') return
      const caller = state.get(request)?.caller
      if (!caller) throw unauthorized()
      if (def.person && !caller.person) throw forbidden('This needs a person; the break-glass token cannot do it')
      if (def.auth !== 'any' && !caller.capabilities.has(def.auth)) throw forbidden(`This needs the capability ${def.auth}`)
    }
  }

  for (const route of registry) {
    const { def } = route
    app.route(
      route.method,
      route.path,
      (c: any) => {
        const { address = null, caller = null } = state.get(c.request) ?? {}
        return (def.handler as Function)({
          ...services,
          params: c.params,
          query: c.query,
          body: c.body,
          caller,
          address,
          request: c.request,
          set: c.set,
        })
      },
      {
        params: def.params,
        query: def.query,
        body: def.body,
        response: def.response,
        transform: authorize(def),
        detail: {
          summary: def.summary,
          description:
            def.auth === 'public'
              ? 'Public: no credential.'
              : `Capability: \`${def.auth}\`${def.person ? ' (a person; not the break-glass token)' : ''}.`,
          tags: [route.path.split('/')[3] ?? route.path.split('/')[1] ?? 'site'],
          'x-capability': def.auth,
          'x-route-file': route.file,
        },
      } as any,
    )
  }

  app.use(
    openapi({
      path: '/api/docs',
      documentation: { info: { title: 'Scouting units site: admin API', version: '1' } },
      exclude: { paths: ['/api/docs/scalar.js'] },
      scalar: { cdn: '/api/docs/scalar.js' } as any,
    }),
  )
  const pages = ({ request }: { request: Request }) => {
    const pathname = requestPath(request)!
    if (pathname === '/api' || pathname.startsWith('/api/')) throw notFound()
    return serveStatic(site ?? null, pathname, request.method)
  }
  app.get('/*', pages, { detail: { hide: true } })
  app.head('/*', pages, { detail: { hide: true } })
  app.get('/api/docs/scalar.js', () => new Response(Bun.file(SCALAR_BUNDLE), { headers: { 'content-type': 'text/javascript' } }), {
    detail: { hide: true },
  })
  return app
}
