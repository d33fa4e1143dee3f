// defineRoute (the one shape every route module uses) and the loader that finds route files. A route declares
// its capability, its schemas in and out, and the answers it may give; the same declaration drives validation,
// the OpenAPI document and the tests' contract checks.
import type { Client } from './auth/sessions.ts'
import { Kind, type Static, type TSchema } from '@sinclair/typebox'
import path from 'node:path'
import type { Capability } from './auth/capabilities.ts'
import type { Caller } from './auth/credential.ts'
import type { Executor } from './db/database.ts'
import type { Services } from './services.ts'

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
export type Method = (typeof METHODS)[number]

type In<S> = S extends TSchema ? Static<S> : undefined

export interface HandlerContext<P, Q, B, C> extends Services {
  params: P
  query: Q
  body: B
  caller: C
  request: Request
  address: string | null
  /** The address and browser asking, as a new session records them. */
  client: Client
  /** Answers with the cookies of this new session of `personId`; gives the page their pages start from. */
  startSession(token: string, personId: number): Promise<'/admin/' | '/family/'>
  /** Header fields for the answer (a cookie, a Link); the status is the route's declared success status. */
  set: { headers: Record<string, string | string[]> }
}

/** One answer a route may give: a description, and its JSON schema or another media type. */
export interface Answer {
  description: string
  schema?: TSchema
  /** A media type other than JSON (`text/csv`, `image/*`): the body is not described by a schema. */
  media?: string
  /** For a refusal: the codes it may carry besides its status's own (`already_claimed`). */
  codes?: string[]
}

/** Status → answer. Refusals every route of its kind may give (400, 401, 403, 413, 415, 422) are added by the docs. */
export type Answers = Partial<
  Record<200 | 201 | 202 | 204 | 303 | 304 | 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 502 | 503 | 507, Answer | string>
>
/** The answers besides the success one: refusals (status → what it means) and redirects. */
type Others = Omit<Answers, 200 | 201 | 202>
/** A success body: a JSON schema, or a download of another media type. */
type Body = TSchema | { media: string }

// A schema is told from a media type by its Kind alone: checking the whole schema (TypeGuard.IsSchema) walked every
// answer's schema at start, a third of the time the route files took to load.
const answering =
  <Status extends 200 | 201 | 202>(status: Status) =>
  <S extends Body, const O extends Others = {}>(body: S, description: string, others?: O) =>
    ({ [status]: { description, ...(Kind in body ? { schema: body } : body) }, ...others }) as Record<
      Status,
      S extends TSchema ? { description: string; schema: S } : { description: string; media: string }
    > &
      O

/** The answers of a route that answers 200 with `body`, and the `others` it may give. */
export const ok = answering(200)
/** The answers of a route that creates something: 201 with `body`. */
export const created = answering(201)
/** The answers of a route that queues work: 202 with `body`. */
export const accepted = answering(202)

type SuccessStatus = 200 | 201 | 202
/** What a handler may return: the body of one of its success answers, or a Response it built itself. */
type Returned<R> = Answers extends R // a route of the registry, whose answers are not known here
  ? unknown
  : | { [K in keyof R]: K extends SuccessStatus ? (R[K] extends { schema: infer S extends TSchema } ? Static<S> : never) : never }[keyof R]
    | Response

/** The JSON a route answers with on success (for typed clients: the admin pages). */
export type AnswerOf<D> = D extends { responses: infer R } ? Exclude<Returned<R>, Response> : never
/** The JSON body a route takes. */
export type BodyOf<D> = D extends { body?: infer B } ? In<B> : never

/** What a route declares besides its capability and summary. */
interface RouteOptions<P, Q, B, R> {
  /** More words for the API docs than the summary. */
  description?: string
  params?: P
  query?: Q
  body?: B
  /** Form posts (application/x-www-form-urlencoded) are accepted besides JSON: the public forms. */
  forms?: boolean
  /** What the route answers: `ok(Schema, 'description', { 404: 'when…' })`, or `created(…)`, `accepted(…)`. */
  responses: R
  /** The write changes what the public site shows: a rebuild is asked for after it succeeds. */
  publishes?: boolean
  /** Largest accepted body in bytes (default 1 MiB). */
  maxBody?: number
  /** How the API docs and generated clients name the operation: a verb and what it acts on (`claimLead`). */
  operationId: string
  /** A PUT that honours `Idempotency-Key` as every POST does: a phone's retry over a patchy signal is done once. */
  retried?: boolean
  /**
   * For a body the route reads itself (an upload): what a retry under the same Idempotency-Key must match, and the
   * request again with the bytes it read (the route then reads them from it).
   */
  retryFingerprint?: (db: Executor, request: Request) => Promise<{ fingerprint: string; request: Request }>
  /** The route needs a person behind the credential: the break-glass token is refused. */
  person?: boolean
  /** The route needs a signed-in person (a session): keys and the break-glass token are refused. */
  session?: boolean
  /**
   * The route belongs to the account page, which stays open to a session whose second factor is overdue (it is where
   * they add one); every other route refuses such a session.
   */
  accountPage?: boolean
}

type Awaitable<T> = T | Promise<T>
type Handler<P, Q, B, R, C> = (ctx: HandlerContext<In<P>, In<Q>, In<B>, C>) => Awaitable<Returned<R>>

type Inputs = TSchema | undefined

/**
 * A route as defineRoute makes it. Without type arguments, any route of the registry: its handler is written as a
 * method so that a route with its own schemas still counts as one (a method's parameter is compared both ways).
 */
export type RouteDef<P = Inputs, Q = Inputs, B = Inputs, R extends Answers = Answers> = RouteOptions<P, Q, B, R> & {
  /** One line for the API docs. */
  summary: string
} & (
    | { auth: 'public'; handler(ctx: HandlerContext<In<P>, In<Q>, In<B>, Caller | null>): Awaitable<Returned<R>> }
    | {
        /** The capability the caller needs, or `any` for any valid credential. */
        auth: Capability | 'any'
        handler(ctx: HandlerContext<In<P>, In<Q>, In<B>, Caller>): Awaitable<Returned<R>>
      }
  )

/**
 * One route: the capability it needs (`public` for none, `any` for any credential), a one-line summary for the
 * docs, and what it takes, answers and does.
 */
export function defineRoute<
  P extends Inputs = undefined,
  Q extends Inputs = undefined,
  B extends Inputs = undefined,
  const R extends Answers = Answers,
>(
  auth: 'public',
  summary: string,
  options: RouteOptions<P, Q, B, R> & { person?: never; handler: Handler<P, Q, B, R, Caller | null> },
): RouteDef<P, Q, B, R>
export function defineRoute<
  P extends Inputs = undefined,
  Q extends Inputs = undefined,
  B extends Inputs = undefined,
  const R extends Answers = Answers,
>(
  auth: Capability | 'any',
  summary: string,
  options: RouteOptions<P, Q, B, R> & { handler: Handler<P, Q, B, R, Caller> },
): RouteDef<P, Q, B, R>
export function defineRoute(
  auth: Capability | 'any' | 'public',
  summary: string,
  options: RouteOptions<Inputs, Inputs, Inputs, Answers> & { handler: unknown },
) {
  return { auth, summary, ...options } as RouteDef
}

/** The success status a route answers with (the first 2xx it declares). */
/** Whether a route takes `Idempotency-Key`: every POST, and a write marked `retried`. */
export const takesIdempotencyKey = (method: string, def: { retried?: boolean }) => method.toUpperCase() === 'POST' || !!def.retried

export const successStatus = (def: RouteDef): number => Number(Object.keys(def.responses).find((s) => s.startsWith('2')) ?? 200)

/**
 * Several operations under one wildcard file (`[...path].ts`), told apart by the last path segment, because the
 * id before it may hold a slash (`/api/admin/socialposts/pack/fall-popcorn/cancel`). Each action is an ordinary
 * route whose `params` hold the id under `param`.
 */
export interface TailDef<A extends Record<string, Action> = Record<string, RouteDef>> {
  tail: { param: string; actions: A }
}

/**
 * What every action is checked for here: only what all routes have, so that the actions' own types (a route with no
 * body) are kept as defineRoute made them rather than widened to any route's.
 */
type Action = Pick<RouteDef, 'summary' | 'operationId'>

export const defineTail = <A extends Record<string, Action>>(param: string, actions: A): TailDef<A> => ({ tail: { param, actions } })

export interface LoadedRoute {
  method: Method
  /** Where Elysia mounts it: `/api/admin/keys/:id`, `/api/admin/socialposts/*`. */
  path: string
  /** The path as the API docs write it: `/api/admin/keys/{id}`, `/api/admin/socialposts/{post_id}/cancel`. */
  docPath: string
  file: string
  def: RouteDef
  /** For an action of a tail route: the id parameter's name and the action. */
  tail?: { param: string; action: string }
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
    const url = urlOf(file)
    for (const method of METHODS) {
      const def: RouteDef | TailDef | undefined = mod[method]
      if (!def) continue
      if (!('tail' in def)) {
        routes.push({ method, path: url, docPath: url.replace(/:(\w+)/g, '{$1}'), file: `routes/${file}`, def })
        continue
      }
      const { param, actions } = def.tail
      for (const [action, actionDef] of Object.entries(actions))
        routes.push({
          method,
          path: url,
          docPath: `${url.slice(0, -1)}{${param}}/${action}`,
          file: `routes/${file}`,
          def: actionDef,
          tail: { param, action },
        })
    }
    const stray = Object.keys(mod).filter((k) => !(METHODS as readonly string[]).includes(k))
    if (stray.length) throw new Error(`routes/${file} exports ${stray.join(', ')}: only HTTP method names are allowed`)
  }
  return routes
}

/** The pattern of the paths a route answers, from its documented path; a tail's id may hold a slash, and a trailing
 * slash is allowed. */
export function pathPattern(route: Pick<LoadedRoute, 'docPath' | 'tail'>): RegExp {
  const escaped = route.docPath.replace(/[.+?^$()|[\]\\]/g, '\\$&')
  return new RegExp(`^${escaped.replace(/\{(\w+)\}/g, (_, name) => (name === route.tail?.param ? '.+' : '[^/]+'))}/?$`)
}
