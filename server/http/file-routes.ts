// Mounts the route files on Elysia. Each is an Elysia route that leaves the request alone (`parse: 'none'`); its
// handler runs these plain steps in order: the capability check (403); the path, query and body read here and
// validated against the route's schemas (422 in plain words); then the route's handler, given one typed context;
// and its answer made into a Response with the declared success status. A POST (or a PUT marked `retried`) with an
// Idempotency-Key runs once (idempotency.ts); a single admin resource carries an ETag, and a write with If-Match goes ahead only when the
// resource is as the client read it (versions.ts). A write that changes public pages asks for a rebuild.
import type { TSchema } from '@sinclair/typebox'
import { Elysia } from 'elysia'
import { sessionCookies } from '../auth/session-cookies.ts'
import type { Caller } from '../auth/credential.ts'
import { forbidden, HttpError, notFound, unauthorized, unprocessable } from '../errors.ts'
import { takesOnlyKnownParameters } from './edge.ts'
import { type HandlerContext, type LoadedRoute, pathPattern, type RouteDef, successStatus, takesIdempotencyKey } from '../routes.ts'
import type { Services } from '../services.ts'
import { parseBody, DEFAULT_BODY_LIMIT } from './body.ts'
import { notServed } from './error-response.ts'
import { requestPath } from './request-path.ts'
import { validator, withTextRules } from './validate.ts'
import { ONE_TIME } from '../schemas.ts'
import { credentialOf, Idempotency } from './idempotency.ts'
import { createdParam, etagOf, ifMatches, noneMatch, PathLocks, preconditionFailed, versionedPaths } from './versions.ts'

/** What a route's Elysia handler is given: the request, its path parameters, and who is asking (see edge.ts). */
interface Arrival {
  request: Request
  params: Record<string, string>
  caller: Caller | null
}

/** The headers a handler sets on its answer (cookies, a Link to the next page); the edge adds its own after. */
type AnswerHeaders = Record<string, string | string[]>

const NUMBER = /^-?\d{1,16}(\.\d{1,16})?$/
const BOOLEAN: Record<string, boolean> = { true: true, false: false }

/** Fields a route types as `types`: a path or a query string is text, so these are converted first. */
function fieldsOf(schema: TSchema | undefined, ...types: string[]): string[] {
  return Object.entries((schema?.properties ?? {}) as Record<string, TSchema>)
    .filter(([, s]) => types.includes(s.type))
    .map(([name]) => name)
}

/** How a route reads its query: `strict` (the admin API, the catalog) refuses names it does not take and repeats. */
interface QueryRules {
  strict: boolean
  /** The names the route takes; a list (`array` in its schema) may be sent several times and comma-separated. */
  known: Set<string>
  lists: Set<string>
}

/**
 * The query string as fields. Under strict rules an unknown name is 422 `unknown_parameter` (a typo is never silently
 * ignored) and a name sent twice that takes one value 422 `repeated_parameter`; else a name sent twice keeps its last
 * value.
 */
function queryOf(url: string, rules: QueryRules): Record<string, unknown> {
  const start = url.indexOf('?')
  if (start < 0) return {}
  const fields = new Map<string, string | string[]>()
  const unknown: { field: string; code: string; detail: string }[] = []
  for (const [name, value] of new URLSearchParams(url.slice(start + 1))) {
    const shown = name.length > 80 ? `${name.slice(0, 80)}…` : name
    if (rules.strict && !rules.known.has(name)) {
      if (!unknown.some((u) => u.field === name))
        unknown.push({ field: name, code: 'unknown_parameter', detail: `${shown}: is not a parameter of this request` })
      continue
    }
    // A list takes its values comma-separated, the parameter repeated, or both (`status=released,hidden`).
    if (rules.lists.has(name)) fields.set(name, [...((fields.get(name) as string[] | undefined) ?? []), ...value.split(',')])
    else if (rules.strict && fields.has(name))
      throw unprocessable(`${shown}: is given more than once; it takes one value`, 'repeated_parameter', name)
    else fields.set(name, value)
  }
  // Every unknown name is listed, so a client fixes all its typos at once.
  if (unknown.length === 1) throw unprocessable(unknown[0].detail, 'unknown_parameter', unknown[0].field)
  if (unknown.length)
    throw new HttpError(
      422,
      `${unknown.map((u) => u.detail.slice(0, u.detail.lastIndexOf(': is not'))).join(', ')}: are not parameters of this request`,
      {
        code: 'unknown_parameter',
        errors: unknown,
      },
    )
  return Object.fromEntries(fields)
}

/** A handler's answer as a Response: JSON with the route's success status, or the Response it made itself; either
 * with the headers the handler set (a cookie beside a redirect). */
function responseOf(value: unknown, status: number, headers: AnswerHeaders): Response {
  const made = value instanceof Response
  if (isEmpty(headers)) {
    if (made) return value
    // Bun's own serialiser and one header list: about 0.25 µs less than a Headers and a Response made apart.
    if (value !== undefined) return Response.json(value, { status })
  }
  const answer = new Headers(made ? value.headers : { 'content-type': 'application/json;charset=utf-8' })
  for (const [name, field] of Object.entries(headers)) for (const one of Array.isArray(field) ? field : [field]) answer.append(name, one)
  if (made) return new Response(value.body, { status: value.status, headers: answer })
  return new Response(value === undefined ? null : JSON.stringify(value), { status, headers: answer })
}

const isEmpty = (headers: object) => Object.keys(headers).length === 0

/** What a handler is given from the request: its path parameters, query and body, validated. */
interface Inputs {
  params: unknown
  query: unknown
  body: unknown
}

/**
 * Reads a route's path, query and body as sent (`read`: a path id that is not a number is 404, a body that cannot be
 * read 400, 413 or 415), then validates them against its schemas (`check`: 422). `sent: false` reads the path alone,
 * as a GET without a query answers it (for the ETag a write is checked against).
 */
function inputsOf(def: RouteDef, strictQuery: boolean) {
  const validate = {
    params: def.params ? validator(withTextRules(def.params), 'path') : null,
    query: def.query ? validator(withTextRules(def.query), 'query') : null,
    body: def.body ? validator(withTextRules(def.body), 'body') : null,
  }
  const numeric = fieldsOf(def.query, 'integer', 'number')
  const booleans = fieldsOf(def.query, 'boolean')
  const ids = fieldsOf(def.params, 'integer')
  const rules: QueryRules = {
    strict: strictQuery,
    known: new Set(Object.keys(def.query?.properties ?? {})),
    lists: new Set(fieldsOf(def.query, 'array')),
  }
  const read = async (request: Request, params: Record<string, string>, sent = true): Promise<Inputs> => {
    const path: Record<string, unknown> = { ...params }
    for (const field of ids) {
      if (!/^\d{1,15}$/.test(params[field] ?? '')) throw notFound()
      path[field] = Number(params[field])
    }
    const query = sent ? queryOf(request.url, rules) : {}
    for (const field of numeric) if (typeof query[field] === 'string' && NUMBER.test(query[field])) query[field] = Number(query[field])
    for (const field of booleans) if (typeof query[field] === 'string' && query[field] in BOOLEAN) query[field] = BOOLEAN[query[field]]
    // A route that takes no body never reads one, whatever is sent; `null` is an empty body.
    const body =
      def.body && sent
        ? await parseBody(
            request,
            (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase(),
            def.maxBody ?? DEFAULT_BODY_LIMIT,
            def.forms ?? false,
          )
        : null
    return { params: path, query, body }
  }
  const check = ({ params, query, body }: Inputs): Inputs => ({
    params: validate.params ? validate.params(params) : params,
    query: validate.query ? validate.query(query) : query,
    body: validate.body ? validate.body(body ?? {}) : (body ?? undefined),
  })
  return { read, check }
}

/** The fields of a route's success answer that are one-time secrets (`OneTime`), never kept for a replay. */
function oneTimeFields(def: RouteDef, status: number): string[] {
  const answer = def.responses[status as keyof RouteDef['responses']]
  const properties = (typeof answer === 'object' ? answer.schema?.properties : undefined) as Record<string, TSchema> | undefined
  return Object.entries(properties ?? {})
    .filter(([, schema]) => schema[ONE_TIME] === true)
    .map(([field]) => field)
}

/** How a route takes part in versions (see versions.ts): a GET that tags, or a write checked against its GET. */
type Versioning =
  | { kind: 'read' }
  // A POST that makes a resource read at `…/:param` below it: its 201 carries the ETag that GET answers.
  | { kind: 'create'; param: string; current: (arrival: Arrival, params: Record<string, string>) => Promise<string | null> }
  | { kind: 'write'; locks: PathLocks; current: (arrival: Arrival, params: Record<string, string>) => Promise<string | null> }

/** Refuses a caller the route is not for: 401 without a credential, 403 without what it needs. */
function authorize(def: RouteDef, caller: Caller | null) {
  if (def.auth === 'public') return
  if (!caller) throw unauthorized()
  if (def.person && !caller.person) throw forbidden('This needs a person; the break-glass token cannot do it', 'person_required')
  if (def.session && caller.via !== 'session')
    throw forbidden('This needs you signed in; a key or the break-glass token cannot do it', 'session_required')
  // A locked person's keys open nothing, not even the account page's routes: only a session can add the factor.
  if (caller.secondFactor?.locked && (caller.via === 'key' || !def.accountPage))
    throw forbidden(
      'Add a second factor on your account page (/admin/account/) first: your unit asks it of your role',
      'second_factor_required',
    )
  if (def.auth !== 'any' && !caller.capabilities.has(def.auth))
    throw forbidden(`This needs the capability ${def.auth}`, 'capability_missing')
}

/**
 * The function that answers one route: authorize, read the inputs, handle (a POST with an Idempotency-Key once; a
 * write with If-Match only when the resource is as the client read it), and answer.
 */
function runner(
  path: string,
  def: RouteDef,
  services: Services,
  addressOf: (request: Request) => string | null,
  idempotency: Idempotency | null,
  versioning: Versioning | null = null,
) {
  const { read, check } = inputsOf(def, takesOnlyKnownParameters(path))
  const status = successStatus(def)
  const secrets = oneTimeFields(def, status)
  /** Runs the handler with its context: the services, the inputs, who is asking, and what it may set on its answer. */
  const handle = async ({ request, caller }: Arrival, inputs: Inputs, db = services.db) => {
    const set = { headers: {} as AnswerHeaders }
    let address: string | null | undefined // read when a handler first asks
    const addressNow = () => (address === undefined ? (address = addressOf(request)) : address)
    const context: HandlerContext<unknown, unknown, unknown, Caller | null> = {
      ...services,
      db,
      ...inputs,
      caller,
      request,
      set,
      get address() {
        return addressNow()
      },
      get client() {
        return { address: addressNow(), userAgent: request.headers.get('user-agent') }
      },
      async startSession(token: string, personId: number) {
        const { cookies, start } = await sessionCookies(services.db, token, personId, services.env.publicBaseUrl)
        set.headers['set-cookie'] = cookies
        return start
      },
    }
    const value: unknown = await def.handler(context as never)
    if (def.publishes) services.publicDataChanged()
    return { value, headers: set.headers }
  }
  /** The ETag of what this GET answers now; null when there is nothing (404). */
  const currentTag = async (arrival: Arrival, params: Record<string, string>): Promise<string | null> => {
    try {
      const { value } = await handle(arrival, check(await read(arrival.request, params, false)))
      return value instanceof Response ? null : etagOf(JSON.stringify(value))
    } catch (error) {
      if (error instanceof HttpError && error.status === 404) return null
      throw error
    }
  }
  /** The answer to a handled request; a create's carries the new resource's ETag. */
  const answerOf = async (arrival: Arrival, value: unknown, headers: AnswerHeaders): Promise<Response> => {
    if (versioning?.kind !== 'create' || status !== 201 || typeof value !== 'object' || value === null || value instanceof Response)
      return responseOf(value, status, headers)
    const made = value as Record<string, unknown>
    const tag = await versioning.current(arrival, { [versioning.param]: String(made[versioning.param] ?? made.id) })
    return responseOf(value, status, tag ? { ...headers, etag: tag } : headers)
  }
  /** A write to a versioned resource: one at a time per resource, and with If-Match only while it still matches. */
  const guarded = (
    versioning: Extract<Versioning, { kind: 'write' }>,
    arrival: Arrival,
    params: Record<string, string>,
    inputs: Inputs,
    db?: Services['db'],
  ) =>
    versioning.locks.run(requestPath(arrival.request) ?? '', async () => {
      const wanted = arrival.request.headers.get('if-match')
      if (wanted !== null) {
        const tag = await versioning.current(arrival, params)
        // What this caller's GET does not show is no such thing (404): a 412 would tell them it exists.
        if (tag === null) throw notFound()
        if (!ifMatches(wanted, tag)) throw preconditionFailed()
      }
      const { value, headers } = await handle(arrival, inputs, db)
      const after = await versioning.current(arrival, params)
      return responseOf(value, status, after ? { ...headers, etag: after } : headers)
    })
  const run = async (arrival: Arrival, params: Record<string, string>): Promise<Response> => {
    const { request, caller } = arrival
    authorize(def, caller)
    const sent = await read(request, params)
    const key = idempotency && request.headers.get('idempotency-key')
    if (key != null) {
      // An upload's file is no JSON body: the route says what tells a retry from another file sent under the same key.
      const upload = def.retryFingerprint ? await def.retryFingerprint(services.db, request) : null
      const once = upload ? { ...arrival, request: upload.request } : arrival
      return idempotency!.answer(
        request,
        credentialOf(caller, addressOf(request)),
        key,
        upload ? { multipart: upload.fingerprint } : sent.body,
        async (db) => {
          if (versioning?.kind === 'write') return guarded(versioning, once, params, check(sent), db)
          const { value, headers } = await handle(once, check(sent), db)
          return answerOf(once, value, headers)
        },
        secrets,
      )
    }
    const inputs = check(sent)
    if (versioning?.kind === 'write') return guarded(versioning, arrival, params, inputs)
    const { value, headers } = await handle(arrival, inputs)
    if (versioning?.kind === 'create') return answerOf(arrival, value, headers)
    if (versioning?.kind !== 'read' || value instanceof Response || typeof value !== 'object' || value === null)
      return responseOf(value, status, headers)
    // A single resource's answer carries its ETag, or is 304 when the client has it already.
    const etag = etagOf(JSON.stringify(value))
    const known = request.headers.get('if-none-match')
    if (known && noneMatch(known, etag)) return new Response(null, { status: 304, headers: { etag } })
    return responseOf(value, status, { ...headers, etag })
  }
  return Object.assign(run, { currentTag })
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

export function fileRoutes(registry: LoadedRoute[], services: Services, addressOf: (request: Request) => string | null) {
  // Routes see who is asking (`caller`), which the edge's request hook sets (edge.ts).
  const app = new Elysia({ name: 'file-routes' }).decorate({ caller: null as Caller | null })
  const allowed = methodsAt(registry)
  const idempotency = new Idempotency(services.db)
  const retried = (method: string, def: RouteDef) => (takesIdempotencyKey(method, def) ? idempotency : null)
  const versioned = versionedPaths(registry)
  const locks = new PathLocks()
  const reads = new Map<string, ReturnType<typeof runner>>()
  for (const r of registry)
    if (r.method === 'GET' && versioned.has(r.path)) reads.set(r.path, runner(r.path, r.def, services, addressOf, null, { kind: 'read' }))
  const versioningOf = (method: string, path: string): Versioning | null => {
    if (method === 'POST') {
      const param = createdParam(path, versioned)
      return param ? { kind: 'create', param, current: reads.get(`${path}/:${param}`)!.currentTag } : null
    }
    const read = reads.get(path)
    if (!read || method === 'GET') return null
    return { kind: 'write', locks, current: read.currentTag }
  }
  for (const routes of Map.groupBy(registry, (r) => `${r.method} ${r.path}`).values()) {
    const { method, path, tail } = routes[0]
    if (!tail) {
      const read = method === 'GET' ? reads.get(path) : undefined
      const run = read ?? runner(path, routes[0].def, services, addressOf, retried(method, routes[0].def), versioningOf(method, path))
      app.route(method, path, ({ request, params, caller }) => run({ request, params, caller }, params), { parse: 'none' })
      continue
    }
    // One Elysia route serves every action under a tail path, since the id before the action may hold a slash.
    const actions = new Map(routes.map((r) => [r.tail!.action, runner(r.path, r.def, services, addressOf, retried(method, r.def))]))
    app.route(
      method,
      path,
      ({ request, params, caller }) => {
        const { id, action } = splitTail((params as Record<string, string>)['*'])
        const run = actions.get(action)
        if (!id) throw notFound()
        if (!run) throw notServed(method, requestPath(request) ?? '', allowed)
        return run({ request, params, caller }, { [tail.param]: id })
      },
      { parse: 'none' },
    )
  }
  return app
}

/**
 * The methods a path answers to, for a 405 with `Allow` when another method was used: those of the route whose
 * documented path fits it most exactly, so a fixed path beside a parameter path (`/api/admin/pages/preview` beside
 * `/api/admin/pages/{slug}`) names only its own methods.
 */
export function methodsAt(registry: LoadedRoute[]) {
  // From the documented path, so an action under a tail route is its own path (`…/{post_id}/cancel`).
  const patterns = registry.map((r) => ({
    method: r.method,
    pattern: pathPattern(r),
    fixed: r.docPath.split('/').filter((segment) => segment && !segment.startsWith('{')).length,
  }))
  return (path: string): string[] => {
    const fits = patterns.filter((p) => p.pattern.test(path))
    const most = Math.max(...fits.map((p) => p.fixed))
    return [...new Set(fits.filter((p) => p.fixed === most).map((p) => p.method))]
  }
}
