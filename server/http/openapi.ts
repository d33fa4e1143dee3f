// The OpenAPI 3.1 document, built from the route registry: every operation with its capability as the scope
// of each credential that may call it, its parameters, body and every answer it may give, with examples.
import type { TSchema } from '@sinclair/typebox'
import { BREAK_GLASS_CAPABILITIES, type Capability, UNSCOPABLE } from '../auth/capabilities.ts'
import { ErrorBody, WWW_AUTHENTICATE } from '../errors.ts'
import type { Answer, LoadedRoute, RouteDef } from '../routes.ts'
import { DEFAULT_BODY_LIMIT, MAX_DEPTH } from './body.ts'

type Json = Record<string, unknown>

/** One tag per feature, in the order the docs show them. */
const TAGS: { name: string; description: string; prefixes: string[] }[] = [
  { name: 'Identity', description: 'Who the caller is and what they may do.', prefixes: ['/api/admin/whoami'] },
  { name: 'Sign-in', description: 'Browser sessions: sign in and out.', prefixes: ['/login', '/logout'] },
  { name: 'Account', description: 'Your own password and sessions.', prefixes: ['/api/admin/account'] },
  { name: 'Keys', description: 'Bearer API keys for scripts, shown once.', prefixes: ['/api/admin/keys'] },
  { name: 'Join form', description: 'The public join form families send.', prefixes: ['/api/join'] },
  {
    name: 'Leads',
    description: 'Join-form leads, their claims and their copies to outside targets.',
    prefixes: ['/api/admin/leads', '/api/admin/mirrors', '/api/admin/summary'],
  },
  {
    name: 'Announcements',
    description: 'Site announcements with a computed state and a live cap.',
    prefixes: ['/api/admin/announcements'],
  },
  { name: 'Nearby units', description: 'The directory of nearby units.', prefixes: ['/api/admin/nearby'] },
  { name: 'Units', description: "Meeting details of the site's own units.", prefixes: ['/api/admin/units'] },
  { name: 'Calendar', description: 'Events in the CalDAV store the calendar lives in.', prefixes: ['/api/admin/calendar'] },
  {
    name: 'Roster',
    description: 'Households, scouts and the yearly checklist; a family sees its own.',
    prefixes: ['/api/admin/roster', '/api/admin/family'],
  },
  {
    name: 'People',
    description: 'Accounts, roles, invites and password-reset links.',
    prefixes: ['/api/admin/people', '/api/invite', '/api/reset', '/api/setup'],
  },
  {
    name: 'Social posts',
    description: 'Posts reported by the social publisher: read, cancel, reschedule.',
    prefixes: ['/api/admin/socialposts'],
  },
  { name: 'History', description: 'The action log of every write.', prefixes: ['/api/admin/history'] },
  {
    name: 'Settings',
    description: 'Typed run-time settings and the state of the site and catalog.',
    prefixes: ['/api/admin/settings', '/api/admin/site', '/api/admin/catalog'],
  },
  { name: 'Catalog', description: 'The season catalog, read by the trading bot.', prefixes: ['/api/catalog'] },
]

const tagOf = (path: string) => TAGS.find((t) => t.prefixes.some((p) => path === p || path.startsWith(p + '/')))?.name ?? 'Site'

const ERROR_REF = { $ref: '#/components/schemas/Error' }

/** A TypeBox schema as plain JSON Schema (TypeBox's own markers dropped; the error model referenced). */
const plain = (schema: TSchema): Json => (schema === ErrorBody ? ERROR_REF : JSON.parse(JSON.stringify(schema)))

/** `GET /api/admin/keys/{id}` → `getAdminKeysById`; `/login` → `postLogin`. */
function operationId(method: string, docPath: string): string {
  const words = docPath
    .split('/')
    .filter((s) => s && s !== 'api')
    .map((s) => (s.startsWith('{') ? `by_${s.slice(1, -1)}` : s))
    .flatMap((s) => s.split(/[^A-Za-z0-9]+/))
    .filter(Boolean)
  return method.toLowerCase() + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('')
}

function security(def: RouteDef) {
  if (def.auth === 'public') return []
  const scopes = def.auth === 'any' ? [] : [def.auth]
  const schemes: Json[] = [{ session: scopes }]
  if (def.auth === 'any' || !UNSCOPABLE.includes(def.auth as Capability)) schemes.push({ bearer: scopes })
  if (!def.person && (def.auth === 'any' || BREAK_GLASS_CAPABILITIES.includes(def.auth as Capability))) schemes.push({ breakGlass: scopes })
  return schemes
}

function parameters(def: RouteDef): Json[] {
  const from = (schema: TSchema | undefined, where: 'path' | 'query') =>
    Object.entries((schema?.properties ?? {}) as Record<string, TSchema>).map(([name, s]) => {
      const { description, examples, ...rest } = plain(s) as { description?: string; examples?: unknown[] }
      return {
        name,
        in: where,
        required: where === 'path' || (schema?.required ?? []).includes(name),
        description: description ?? name,
        schema: rest,
        ...(examples?.length ? { example: examples[0] } : {}),
      }
    })
  return [...from(def.params, 'path'), ...from(def.query, 'query')]
}

const exampleOf = (schema: TSchema | undefined) => (schema?.examples as unknown[] | undefined)?.[0]

function content(schema: TSchema | undefined, media = 'application/json'): Json {
  const example = exampleOf(schema)
  return { [media]: { ...(schema ? { schema: plain(schema) } : {}), ...(example === undefined ? {} : { example }) } }
}

/** The refusals a route gives by its kind: no credential, not allowed, a body or input that does not fit. */
function standardAnswers(def: RouteDef, method: string): Record<number, string> {
  const answers: Record<number, string> = {}
  if (def.auth !== 'public') {
    answers[401] = 'No credential, or one that is dead (signed out, disabled, revoked or expired)'
    answers[403] = `The credential may not do this${def.auth === 'any' ? '' : ` (it needs ${def.auth})`}, is used from a network it may not be used from, or the request is a cross-site browser write`
  } else if (method !== 'get') answers[403] = 'A cross-site browser write (foreign Origin or Sec-Fetch-Site: cross-site)'
  if (def.body) {
    answers[400] = `The body is not JSON${def.forms ? ' or a form' : ''}, or nests deeper than ${MAX_DEPTH} levels`
    answers[413] = `The body is larger than ${def.maxBody ?? DEFAULT_BODY_LIMIT} bytes`
    answers[415] = `The body is not JSON${def.forms ? ' or a form' : ''}`
  }
  if (def.body || def.query || def.params) answers[422] = 'A field does not fit: the detail names it'
  return answers
}

function response(status: number, answer: Answer | string): Json {
  const { description, schema, media } = typeof answer === 'string' ? { description: answer, schema: undefined, media: undefined } : answer
  const headers: Json = {}
  if (status === 401)
    headers['WWW-Authenticate'] = { description: `Which credential to send: \`${WWW_AUTHENTICATE}\``, schema: { type: 'string' } }
  if (status === 429) headers['Retry-After'] = { description: 'Seconds to wait before trying again', schema: { type: 'integer' } }
  if (status === 303) headers['Location'] = { description: 'Where the browser goes next', schema: { type: 'string' } }
  const base = { description, ...(Object.keys(headers).length ? { headers } : {}) }
  if (status === 303 || status === 304) return base
  if (media) return { ...base, content: { [media]: { schema: { type: 'string', format: 'binary' } } } }
  if (status >= 400) {
    const example = exampleOf(schema) ?? { detail: description }
    return { ...base, content: { 'application/json': { schema: schema ? plain(schema) : ERROR_REF, example } } }
  }
  return { ...base, ...(schema ? { content: content(schema) } : {}) }
}

function operation(route: LoadedRoute): Json {
  const { def } = route
  const method = route.method.toLowerCase()
  const answers: Record<string, Answer | string | undefined> = { ...standardAnswers(def, method), ...def.responses }
  const params = parameters(def)
  return {
    operationId: def.operationId ?? operationId(route.method, route.docPath),
    summary: def.summary,
    description: [
      def.description,
      def.auth === 'public'
        ? 'Public: no credential.'
        : `Capability: \`${def.auth}\`${def.person ? ' (a person; not the break-glass token)' : ''}.`,
    ]
      .filter(Boolean)
      .join('\n\n'),
    tags: [tagOf(route.docPath)],
    security: security(def),
    ...(params.length ? { parameters: params } : {}),
    ...(def.body
      ? {
          requestBody: {
            required: true,
            content: {
              ...content(def.body),
              ...(def.forms ? content(def.body, 'application/x-www-form-urlencoded') : {}),
            },
          },
        }
      : {}),
    responses: Object.fromEntries(
      Object.entries(answers).flatMap(([status, answer]) => (answer ? [[status, response(Number(status), answer)]] : [])),
    ),
    'x-capability': def.auth,
    'x-route-file': route.file,
  }
}

export function openApiDocument(registry: LoadedRoute[], baseUrl: string): Json {
  const paths: Record<string, Json> = {}
  for (const route of registry) (paths[route.docPath] ??= {})[route.method.toLowerCase()] = operation(route)
  const used = new Set(Object.values(paths).flatMap((ops) => Object.values(ops).flatMap((op) => (op as Json).tags as string[])))
  return {
    openapi: '3.1.0',
    info: {
      title: 'Scouting units site: admin API',
      version: '1',
      description:
        'The admin API of a website service for a Cub Scout pack and a Scouts BSA troop, and the public routes beside it. ' +
        'Every refusal is `{"detail": "…"}` in plain words. Each operation names the capability it needs as the scope of ' +
        "every credential that may call it; a key holds its scopes ∩ its owner's capabilities.",
    },
    servers: [{ url: baseUrl, description: 'This service' }],
    tags: TAGS.filter((t) => used.has(t.name)).map(({ name, description }) => ({ name, description })),
    paths,
    components: {
      schemas: { Error: plain({ ...ErrorBody, $id: undefined } as TSchema) },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'site_session', description: 'A browser session, set by POST /login.' },
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'site_<secret>',
          description: 'An API key, honoured only under /api/admin, from the LAN unless the setting api_keys_from is anywhere.',
        },
        breakGlass: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Admin-Token',
          description: 'The break-glass token from ADMIN_TOKEN, accepted from the LAN only; it has no person.',
        },
      },
    },
  }
}
