// Mounts the route files: for each request, the capability check (403), then params, query and body
// validated against the route's schemas (422 in plain words), then the handler; the declared success status
// is set, and a write that changes public pages asks for a rebuild.
import type { TSchema } from '@sinclair/typebox'
import { Elysia } from 'elysia'
import { sessionCookies } from '../account/session-cookies.ts'
import { forbidden, notFound, unauthorized } from '../errors.ts'
import { type LoadedRoute, type RouteDef, type Services, successStatus } from '../routes.ts'
import { requestState } from './request-state.ts'
import { validator, withTextRules } from './validate.ts'

const NUMBER = /^-?\d{1,16}(\.\d{1,16})?$/

/** Fields a route types as `types`: a path or a query string is text, so these are converted first. */
function fieldsOf(schema: TSchema | undefined, ...types: string[]): string[] {
  return Object.entries((schema?.properties ?? {}) as Record<string, TSchema>)
    .filter(([, s]) => types.includes(s.type))
    .map(([name]) => name)
}

const BOOLEAN: Record<string, boolean> = { true: true, false: false }

interface Incoming {
  request: Request
  params: Record<string, string>
  query: Record<string, unknown>
  body: unknown
  set: { status?: number | string; headers: Record<string, string | number | string[]> }
}

type HandlerContext = Record<string, unknown>

/** The function that answers one route: authorize, validate, handle. */
function runner(def: RouteDef, services: Services) {
  const check = {
    params: def.params ? validator(withTextRules(def.params), 'path') : null,
    query: def.query ? validator(withTextRules(def.query), 'query') : null,
    body: def.body ? validator(withTextRules(def.body), 'body') : null,
  }
  const numeric = fieldsOf(def.query, 'integer', 'number')
  const booleans = fieldsOf(def.query, 'boolean')
  const ids = fieldsOf(def.params, 'integer')
  const status = successStatus(def)
  return async (c: Incoming, params: Record<string, string>) => {
    const { address, caller } = requestState.of(c.request)
    const validated = () => {
      // Copies only where a field is converted: a query string and path are text, a few fields numbers.
      let query = c.query
      if (numeric.length || booleans.length) {
        query = { ...c.query }
        for (const field of numeric) if (typeof query[field] === 'string' && NUMBER.test(query[field])) query[field] = Number(query[field])
        for (const field of booleans) if (typeof query[field] === 'string' && query[field] in BOOLEAN) query[field] = BOOLEAN[query[field]]
      }
      // `null` is what the body parser answers for an empty body: no body at all.
      const body = c.body === null ? undefined : c.body
      // A path id that is not a number names nothing: 404, not 422.
      let path: Record<string, unknown> = params
      if (ids.length) {
        path = { ...params }
        for (const field of ids) {
          if (!/^\d{1,15}$/.test(params[field] ?? '')) throw notFound()
          path[field] = Number(params[field])
        }
      }
      // The services are the context's prototype rather than copied into it: one object per request, not two.
      const context: HandlerContext = Object.create(services)
      context.params = check.params ? check.params(path) : path
      context.query = check.query ? check.query(query) : query
      context.body = check.body ? check.body(body ?? {}) : body
      context.address = address
      context.client = { address, userAgent: c.request.headers.get('user-agent') }
      context.startSession = async (token: string, personId: number) => {
        const { cookies, start } = await sessionCookies(services.db, token, personId, services.env.publicBaseUrl)
        c.set.headers['set-cookie'] = cookies
        return start
      }
      context.request = c.request
      context.set = c.set
      context.caller = caller
      return context
    }
    if (def.auth !== 'public') {
      if (!caller) throw unauthorized()
      if (def.person && !caller.person) throw forbidden('This needs a person; the break-glass token cannot do it')
      if (def.auth !== 'any' && !caller.capabilities.has(def.auth)) throw forbidden(`This needs the capability ${def.auth}`)
    }
    const result = await def.handler(validated() as never)
    if (!(result instanceof Response)) c.set.status = status
    if (def.publishes) services.publicDataChanged()
    return result
  }
}

/** `pack/2026-11-30-popcorn/cancel` → the id and the action after its last slash. */
function splitTail(tail: string): { id: string; action: string } {
  const cut = tail.lastIndexOf('/')
  let id: string
  try {
    id = decodeURIComponent(tail.slice(0, cut))
  } catch {
    throw notFound()
  }
  return { id, action: tail.slice(cut + 1) }
}

export function fileRoutes(registry: LoadedRoute[], services: Services) {
  const app = new Elysia({ name: 'file-routes' })
  const mounts = Map.groupBy(registry, (r) => `${r.method} ${r.path}`)
  for (const routes of mounts.values()) {
    const { method, path } = routes[0]
    const tail = routes[0].tail
    if (!tail) {
      const run = runner(routes[0].def, services)
      // Named fields, not the whole context: Elysia reads the handler to decide what to parse (never the cookies here).
      app.route(method, path, ({ request, params, query, body, set }) =>
        run({ request, params, query, body, set } as Incoming, params as Record<string, string>),
      )
      continue
    }
    // One mount serves every action under a tail path, since the id before the action may hold a slash.
    const actions = new Map(routes.map((r) => [r.tail!.action, runner(r.def, services)]))
    app.route(method, path, ({ request, params, query, body, set }) => {
      const { id, action } = splitTail((params as Record<string, string>)['*'])
      const run = actions.get(action)
      if (!run || !id) throw notFound()
      return run({ request, params, query, body, set } as Incoming, { [tail.param]: id })
    })
  }
  return app
}

/** The methods a path answers to, for a 405 with `Allow` when another method was used. */
export function methodsAt(registry: LoadedRoute[]) {
  const patterns = registry.map((r) => ({
    method: r.method,
    pattern: new RegExp(
      `^${r.path
        .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
        .replace(/:\w+/g, '[^/]+')
        .replace(/\*/g, '.+')}/?$`,
    ),
  }))
  return (path: string): string[] => [...new Set(patterns.filter((p) => p.pattern.test(path)).map((p) => p.method))]
}
