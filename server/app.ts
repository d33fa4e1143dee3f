// createApp builds the Elysia application in the order a request meets it (docs/architecture.md walks it):
// the edge (path, request id, credential, CSRF rule; the log line after the answer), the catalog's edge (CORS,
// rate limit), errors, the route files, the API docs, the pages.
import { Elysia } from 'elysia'
import { addressRules } from './auth/address.ts'
import { breakGlassThrottle, secondFactorThrottle, signInThrottle } from './auth/login-throttle.ts'
import type { CalendarStore } from './calendar/calendar-store.ts'
import { calendarStoreFor } from './calendar/store.ts'
import type { CalendarWatch } from './calendar/watch.ts'
import type { CatalogLoader } from './catalog/loader.ts'
import type { Db } from './db/client.ts'
import type { Env } from './env.ts'
import { apiDocs } from './http/api-docs.ts'
import { errorHandling } from './http/error-response.ts'
import { fileRoutes, methodsAt } from './http/file-routes.ts'
import { edge } from './http/edge.ts'
import { catalogEdge } from './catalog/edge.ts'
import { sitePages } from './site/pages.ts'
import { MirrorQueue } from './leads/mirrors.ts'
import type { MailSender } from './mail/sender.ts'
import { Outbound } from './http/outbound.ts'
import { type Logger, logEvent } from './ops/log.ts'
import { RateLimiter, WindowLimiter } from './rate-limit.ts'
import { type LoadedRoute, loadRoutes } from './routes.ts'
import type { Services } from './services.ts'
import type { SiteBuilder } from './site/builder.ts'

export interface AppOptions {
  db: Db
  env: Readonly<Env>
  routes?: LoadedRoute[]
  /** Regenerates and serves the public site; without it, pages answer 503 (being built). */
  site?: SiteBuilder
  /** The season catalog loader; its version keys the cached catalog answers. */
  catalog?: CatalogLoader
  /** Where events are kept; by default what the environment configures (CalDAV, else the site itself). */
  calendar?: CalendarStore
  /** What polls the calendar store; the health check reports what it last heard. */
  calendarWatch?: CalendarWatch | null
  /** Where the request log goes (one line per answer); none by default, so tests stay quiet. */
  log?: Logger | null
  /** Called when a write changed public data (tests count these). */
  onPublicDataChange?: () => void
  /** How calls to addresses from settings and ingested data are made; by default under OUTBOUND_ALLOW. */
  outbound?: Outbound
  /** The mail sender (started by whoever made it); none when mail is not set up. */
  mail?: MailSender | null
}

/**
 * How the service listens, wherever it is started (main.ts, tests, benchmarks): never Bun's development
 * error page, never sharing the port with another process, and a last-resort `{detail}` for an error
 * that escapes the app.
 */
export const SERVE_OPTIONS = {
  development: false,
  reusePort: false,
  // Uploads (files.max_mb, at most 100 MB) are the largest bodies; each route still reads only up to its own limit.
  maxRequestBodySize: 101 * 1024 * 1024,
  error(error: Error) {
    console.error('Unhandled error outside the app:', error)
    return Response.json({ detail: 'Internal error; it has been logged', code: 'internal_error' }, { status: 500 })
  },
}

export async function createApp({
  db,
  env,
  routes,
  site,
  catalog,
  calendar,
  calendarWatch,
  log,
  onPublicDataChange,
  outbound,
  mail,
}: AppOptions) {
  const guarded = outbound ?? new Outbound(env.outboundAllow)
  const addresses = addressRules(env.trustProxy, env.lanCidrs, (peer) =>
    logEvent('proxy.untrusted', {
      peer,
      message:
        `Requests from ${peer} carry X-Forwarded-For, Forwarded or X-Real-IP, but TRUST_PROXY does not name ${peer}: ` +
        'their clients count as unknown, never the LAN. Behind a reverse proxy on this machine, set TRUST_PROXY=127.0.0.1/32,::1/128',
    }),
  )
  // The listening server gives the peer's address; a proxy's header counts only from a trusted proxy (TRUST_PROXY).
  const addressOf = (request: Request) => addresses.clientAddress(app.server?.requestIP(request)?.address ?? null, request.headers)
  const mirrors = new MirrorQueue(db, guarded)
  const services: Services = {
    db,
    env,
    site: site ?? null,
    catalog: catalog ?? null,
    calendar: calendar ?? calendarStoreFor(env, db),
    calendarWatch: calendarWatch ?? null,
    outbound: guarded,
    mail: mail ?? null,
    addresses,
    loginThrottle: signInThrottle(),
    secondFactorThrottle: secondFactorThrottle(),
    // Every ask mails a link, so every ask counts: a fixed number an hour, not a growing wait.
    forgotLimits: { email: new RateLimiter(3, 3_600_000), client: new RateLimiter(10, 3_600_000) },
    loginLinkLimits: { email: new RateLimiter(3, 3_600_000), client: new RateLimiter(10, 3_600_000) },
    joinLimiter: new RateLimiter(5, 10 * 60_000),
    replyLimiter: new RateLimiter(30, 10 * 60_000),
    healthLimiter: new WindowLimiter(60_000),
    passkeyLimiter: new RateLimiter(20, 60_000),
    mirrorLead: (leadId) => mirrors.add(leadId),
    publicDataChanged() {
      onPublicDataChange?.()
      site?.request()
    },
  }
  const registry = routes ?? (await loadRoutes())
  const allowed = methodsAt(registry)
  const app: Elysia = new Elysia({ name: 'site' })
  return app
    .use(edge({ auth: { db, env, rules: addresses, breakGlass: breakGlassThrottle() }, addressOf, log: log ?? null }))
    .use(catalogEdge(db, addressOf))
    .use(errorHandling(allowed, env.databasePath))
    .use(fileRoutes(registry, services, addressOf))
    .use(apiDocs(registry, env.publicBaseUrl))
    .use(sitePages(site ?? null, allowed))
}
