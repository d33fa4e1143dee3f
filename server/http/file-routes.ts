// Mounts the route files: for each request, the capability check (403), then params, query and body
// validated against the route's schemas (422 in plain words), then the handler; the declared success status
// is set, and a write that changes public pages asks for a rebuild.
import type { TSchema } from '@sinclair/typebox'
import { type Context, Elysia } from 'elysia'
import { mapResponse } from 'elysia/adapter/bun/handler'
import { sessionCookies } from '../account/session-cookies.ts'
import type { Caller } from '../auth/credential.ts'
import { forbidden, HttpError, notFound, unauthorized } from '../errors.ts'
import { type LoadedRoute, type RouteDef, type Services, successStatus } from '../routes.ts'
import { dressedInit, dressedResponse, isAdminPath } from './front-door.ts'
import { requestState } from './request-state.ts'
import { bodyParser } from './body.ts'
import { notServed } from './error-response.ts'
import { validator, withTextRules } from './validate.ts'
import { credentialOf, Idempotency } from './idempotency.ts'
import { etagOf, ifMatches, PathLocks, preconditionFailed, versionedPaths } from './versions.ts'
import { noneMatch } from '../catalog/http.ts'

const NUMBER = /^-?\d{1,16}(\.\d{1,16})?$/

const isEmpty = (headers: object) => {
  for (const _ in headers) return false
  return true
}

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

/**
 * What every handler's context inherits: the services, and what is worked out from the request only when a
 * handler asks (most never need the client address). One object per request, not a copy of the services.
 */
function sharedContext(services: Services): Services {
  return Object.create(services, {
    address: {
      get(this: { request: Request }) {
        return requestState.address(this.request)
      },
    },
    client: {
      get(this: { request: Request }) {
        return { address: requestState.address(this.request), userAgent: this.request.headers.get('user-agent') }
      },
    },
    // Handlers take it out of the context (`{ startSession }`), so it is made for the request when asked.
    startSession: {
      get(this: { set: Incoming['set'] }) {
        const set = this.set
        return async (token: string, personId: number) => {
          const { cookies, start } = await sessionCookies(services.db, token, personId, services.env.publicBaseUrl)
          set.headers['set-cookie'] = cookies
          return start
        }
      },
    },
  })
}

/** How a route takes part in versions (see versions.ts): a GET that tags, or a write checked against its GET. */
type Versioning =
  | { kind: 'read' }
  | {
      kind: 'write'
      locks: PathLocks
      current: (c: Incoming, params: Record<string, string>, caller: Caller | null) => Promise<string | null>
    }

/**
 * The function that answers one route: authorize, validate, handle (a POST with an Idempotency-Key once; a write with
 * If-Match only when the resource is as the client read it).
 */
function runner(def: RouteDef, shared: Services, admin: boolean, idempotency: Idempotency | null, versioning: Versioning | null = null) {
  const check = {
    params: def.params ? validator(withTextRules(def.params), 'path') : null,
    query: def.query ? validator(withTextRules(def.query), 'query') : null,
    body: def.body ? validator(withTextRules(def.body), 'body') : null,
  }
  const numeric = fieldsOf(def.query, 'integer', 'number')
  const booleans = fieldsOf(def.query, 'boolean')
  const ids = fieldsOf(def.params, 'integer')
  const status = successStatus(def)
  /** The handler's context: the request's fields converted where the schema wants numbers, then validated. */
  const contextFor = (c: Incoming, params: Record<string, string>, caller: Caller | null): HandlerContext => {
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
    const context: HandlerContext = Object.create(shared)
    context.params = check.params ? check.params(path) : path
    context.query = check.query ? check.query(query) : query
    context.body = check.body ? check.body(body ?? {}) : body
    context.request = c.request
    context.set = c.set
    context.caller = caller
    return context
  }
  const json = dressedInit(status, { 'content-type': 'application/json;charset=utf-8', ...(admin ? { 'cache-control': 'no-store' } : {}) })
  const finish = (c: Incoming, result: unknown) => {
    if (def.publishes) shared.publicDataChanged()
    if (result instanceof Response) return result
    // A JSON answer with nothing else to carry (no cookie) is made here with every header it needs, so neither
    // Elysia nor the front door has to read its headers back.
    if (typeof result === 'object' && result !== null && isEmpty(c.set.headers)) return dressedResponse(JSON.stringify(result), json)
    c.set.status = status
    return result
  }
  /**
   * A handler's later answer, made into the final Response here with what the handler set (status, cookies), as
   * Elysia does for an answer given at once: Elysia does not wait for a promise from a handler it takes for
   * synchronous (see `mount`). The set is emptied after, so Elysia's own pass over the answer changes nothing.
   */
  const late = (c: Incoming, value: unknown) => {
    const response = mapResponse(finish(c, value), c.set as Context['set'], c.request)
    c.set.headers = {}
    c.set.status = 200
    return response
  }
  /** A resource's answer with its ETag, or 304 when the client has it already. */
  const tagged = (c: Incoming, value: unknown) => {
    if (value instanceof Response || typeof value !== 'object' || value === null) return late(c, value)
    const text = JSON.stringify(value)
    const etag = etagOf(text)
    const known = c.request.headers.get('if-none-match')
    if (known && noneMatch(known, etag)) return new Response(null, { status: 304, headers: { etag } })
    c.set.headers.etag = etag
    return late(c, value)
  }
  const checkedWrite = (c: Incoming, params: Record<string, string>, caller: Caller | null, v: Versioning & { kind: 'write' }) =>
    v.locks.run(requestState.of(c.request).path, async () => {
      const context = contextFor(c, params, caller)
      const wanted = c.request.headers.get('if-match')
      if (wanted !== null && !ifMatches(wanted, await v.current(c, params, caller))) throw preconditionFailed()
      const value = await def.handler(context as never)
      const after = await v.current(c, params, caller)
      if (after) c.set.headers.etag = after
      return late(c, value)
    })
  /** The ETag of what this GET answers now; null when there is nothing (404). */
  const currentTag = async (c: Incoming, params: Record<string, string>, caller: Caller | null): Promise<string | null> => {
    try {
      const value = await def.handler(contextFor({ ...c, query: NO_QUERY, body: null }, params, caller) as never)
      return value instanceof Response ? null : etagOf(JSON.stringify(value))
    } catch (error) {
      if (error instanceof HttpError && error.status === 404) return null
      throw error
    }
  }
  // Not async: a handler that answers at once (a cached catalog answer) costs no promise here.
  const answer = (c: Incoming, params: Record<string, string>): unknown => {
    const { caller } = requestState.of(c.request)
    if (def.auth !== 'public') {
      if (!caller) throw unauthorized()
      if (def.person && !caller.person) throw forbidden('This needs a person; the break-glass token cannot do it', 'person_required')
      if (def.session && caller.via !== 'session')
        throw forbidden('This needs you signed in; a key or the break-glass token cannot do it', 'session_required')
      if (caller.secondFactor?.locked && !def.accountPage)
        throw forbidden(
          'Add a second factor on your account page (/admin/account/) first: your unit asks it of your role',
          'second_factor_required',
        )
      if (def.auth !== 'any' && !caller.capabilities.has(def.auth))
        throw forbidden(`This needs the capability ${def.auth}`, 'capability_missing')
    }
    const key = idempotency && c.request.headers.get('idempotency-key')
    if (key != null)
      return idempotency!.answer(c.request, credentialOf(caller, requestState.address(c.request)), key, c.body, async () =>
        late(c, await def.handler(contextFor(c, params, caller) as never)),
      )
    if (versioning?.kind === 'write') return checkedWrite(c, params, caller, versioning)
    if (versioning?.kind === 'read')
      return Promise.resolve(def.handler(contextFor(c, params, caller) as never)).then((value) => tagged(c, value))
    const result: unknown = def.handler(contextFor(c, params, caller) as never)
    return result instanceof Promise ? result.then((value) => late(c, value)) : finish(c, result)
  }
  return Object.assign(answer, { currentTag })
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

type Mounted = (c: Incoming) => unknown
const NO_QUERY: Record<string, unknown> = Object.freeze({})

/**
 * The handler Elysia mounts, naming only the fields the routes use: Elysia reads a handler's source to decide what
 * to parse, so a route with no query schema never pays for parsing a query string, and one with no body schema
 * never reads a body. Elysia also takes a handler whose source ends in `return f(…)` for an async one and puts
 * every answer through a promise, doubling the cost of a cached catalog answer: so each ends in `return answer`,
 * after a check that there is one. A promise they hand back is then not awaited by Elysia: it resolves to the
 * final Response (`late` in the runner), and its failure becomes an answer in the front door, as a thrown error
 * does in Elysia's error hook.
 */
function mount(
  app: Elysia,
  method: string,
  path: string,
  defs: RouteDef[],
  routeFor: (path: string) => RouteDef | undefined,
  handle: Mounted,
) {
  const query = defs.some((d) => d.query)
  const hook = defs.some((d) => d.body) ? { parse: bodyParser(routeFor) } : {}
  if (query && hook.parse)
    app.route(
      method,
      path,
      function all({ request, params, query, body, set }) {
        const answer = handle({ request, params, query, body, set })
        if (answer === undefined) throw new Error(`${method} ${path} answered nothing`)
        return answer
      },
      hook,
    )
  else if (query)
    app.route(method, path, function withQuery({ request, params, query, set }) {
      const answer = handle({ request, params, query, body: null, set })
      if (answer === undefined) throw new Error(`${method} ${path} answered nothing`)
      return answer
    })
  else if (hook.parse)
    app.route(
      method,
      path,
      function withBody({ request, params, body, set }) {
        const answer = handle({ request, params, query: NO_QUERY, body, set })
        if (answer === undefined) throw new Error(`${method} ${path} answered nothing`)
        return answer
      },
      hook,
    )
  else
    app.route(method, path, function plain({ request, params, set }) {
      const answer = handle({ request, params, query: NO_QUERY, body: null, set })
      if (answer === undefined) throw new Error(`${method} ${path} answered nothing`)
      return answer
    })
}

export function fileRoutes(registry: LoadedRoute[], services: Services) {
  const app = new Elysia({ name: 'file-routes' })
  const shared = sharedContext(services)
  const allowed = methodsAt(registry)
  const idempotency = new Idempotency(services.db)
  const retried = (method: string) => (method === 'POST' ? idempotency : null)
  const versioned = versionedPaths(registry)
  const locks = new PathLocks()
  const reads = new Map<string, ReturnType<typeof runner>>()
  for (const r of registry)
    if (r.method === 'GET' && versioned.has(r.path)) reads.set(r.path, runner(r.def, shared, true, null, { kind: 'read' }))
  const versioningOf = (method: string, path: string): Versioning | null => {
    const read = reads.get(path)
    if (!read) return null
    if (method === 'GET') return { kind: 'read' }
    return method === 'POST' ? null : { kind: 'write', locks, current: read.currentTag }
  }
  const mounts = Map.groupBy(registry, (r) => `${r.method} ${r.path}`)
  for (const routes of mounts.values()) {
    const { method, path } = routes[0]
    const defs = routes.map((r) => r.def)
    const tail = routes[0].tail
    if (!tail) {
      const run =
        method === 'GET' && reads.has(path)
          ? reads.get(path)!
          : runner(defs[0], shared, isAdminPath(path), retried(method), versioningOf(method, path))
      mount(
        app,
        method,
        path,
        defs,
        () => defs[0],
        (c) => run(c, c.params),
      )
      continue
    }
    // One mount serves every action under a tail path, since the id before the action may hold a slash.
    const actions = new Map(
      routes.map((r) => [r.tail!.action, { def: r.def, run: runner(r.def, shared, isAdminPath(path), retried(method)) }]),
    )
    const actionOf = (requestPath: string) => actions.get(requestPath.slice(requestPath.lastIndexOf('/') + 1))
    mount(
      app,
      method,
      path,
      defs,
      (requestPath) => actionOf(requestPath)?.def,
      (c) => {
        const { id, action } = splitTail(c.params['*'])
        const run = actions.get(action)?.run
        if (!id) throw notFound()
        if (!run) throw notServed(method, requestState.of(c.request).path, allowed)
        return run(c, { [tail.param]: id })
      },
    )
  }
  return app
}

/** The methods a path answers to, for a 405 with `Allow` when another method was used. */
export function methodsAt(registry: LoadedRoute[]) {
  // From the documented path, so an action under a tail route is its own path (`…/{post_id}/cancel`); a tail's id may
  // hold a slash.
  const patterns = registry.map((r) => ({
    method: r.method,
    pattern: new RegExp(
      `^${r.docPath.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, name) => (name === r.tail?.param ? '.+' : '[^/]+'))}/?$`,
    ),
  }))
  return (path: string): string[] => [...new Set(patterns.filter((p) => p.pattern.test(path)).map((p) => p.method))]
}
