// defineRoute (the one shape every route module uses) and the loader that finds route files.
import type { Static, TSchema } from '@sinclair/typebox'
import path from 'node:path'
import type { Capability } from './auth/capabilities.ts'
import type { Caller } from './auth/credential.ts'
import type { Db } from './db/client.ts'
import type { Env } from './env.ts'
import type { LoginThrottle } from './auth/login-throttle.ts'
import type { RateLimiter } from './rate-limit.ts'
import type { SiteBuilder } from './site/builder.ts'
import type { CatalogLoader } from './catalog/loader.ts'
import type { CalendarStore } from './calendar/store.ts'

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
export type Method = (typeof METHODS)[number]

type In<S> = S extends TSchema ? Static<S> : undefined

export interface Services {
  db: Db
  env: Readonly<Env>
  /** Asks for a site rebuild after a write that changes public data. */
  publicDataChanged(): void
  loginThrottle: LoginThrottle
  /** Public join-form posts per address. */
  joinLimiter: RateLimiter
  /** Copies a new lead to the configured targets in the background. */
  mirrorLead(leadId: number): void
  site: SiteBuilder | null
  catalog: CatalogLoader | null
  /** The CalDAV collection, when CALDAV_* are set. */
  calendar: CalendarStore | null
}

export interface HandlerContext<P, Q, B, C> extends Services {
  params: P
  query: Q
  body: B
  caller: C
  request: Request
  address: string | null
  set: { status?: number | string; headers: Record<string, string | number> }
}

interface RouteDefBase<P, Q, B> {
  /** One line for the API docs. */
  summary: string
  params?: P
  query?: Q
  body?: B
  response?: TSchema
  /** Largest accepted body in bytes (default 1 MiB; honoured for routes without path parameters). */
  maxBody?: number
}

export type RouteDef<P = any, Q = any, B = any> = RouteDefBase<P, Q, B> &
  (
    | {
        /** `public`: no credential needed. */
        auth: 'public'
        person?: never
        handler: (ctx: HandlerContext<In<P>, In<Q>, In<B>, Caller | null>) => unknown
      }
    | {
        /** The capability the caller needs, or `any` for any valid credential. */
        auth: Capability | 'any'
        /** The route needs a person behind the credential: the break-glass token is refused. */
        person?: boolean
        handler: (ctx: HandlerContext<In<P>, In<Q>, In<B>, Caller>) => unknown
      }
  )

export function defineRoute<
  P extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  B extends TSchema | undefined = undefined,
>(def: RouteDef<P, Q, B>): RouteDef<P, Q, B> {
  return def
}

export interface LoadedRoute {
  method: Method
  path: string
  file: string
  def: RouteDef
}

/** Maps a route file to its URL: `keys/[id].ts` → `/keys/:id`, `[...rest].ts` → `/*`, `index.ts` → its folder. */
export function urlOf(relativeFile: string): string {
  const segments = relativeFile
    .replace(/\.ts$/, '')
    .split('/')
    .filter((s, i, all) => !(s === 'index' && i === all.length - 1))
    .map((s) => (s.startsWith('[...') ? '*' : s.startsWith('[') ? `:${s.slice(1, -1)}` : s))
  return '/' + segments.join('/')
}

export async function loadRoutes(dir = path.join(import.meta.dir, '..', 'routes')): Promise<LoadedRoute[]> {
  const files = [...new Bun.Glob('**/*.ts').scanSync({ cwd: dir })].sort()
  const routes: LoadedRoute[] = []
  for (const file of files) {
    const mod = await import(path.join(dir, file))
    for (const method of METHODS) {
      if (mod[method]) routes.push({ method, path: urlOf(file), file: `routes/${file}`, def: mod[method] })
    }
    const stray = Object.keys(mod).filter((k) => !(METHODS as readonly string[]).includes(k))
    if (stray.length) throw new Error(`routes/${file} exports ${stray.join(', ')}: only HTTP method names are allowed`)
  }
  return routes
}
