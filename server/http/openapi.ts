// The OpenAPI 3.1 document, built from the route registry: every operation with its capability as the scope
// of each credential that may call it, its parameters, body and every answer it may give, with examples.
import type { TSchema } from '@sinclair/typebox'
import { BREAK_GLASS_CAPABILITIES, type Capability, UNSCOPABLE } from '../auth/capabilities.ts'
import { ErrorBody, STATUS_CODES, WWW_AUTHENTICATE } from '../errors.ts'
import { type Answer, type LoadedRoute, type RouteDef, takesIdempotencyKey } from '../routes.ts'
import { DEFAULT_BODY_LIMIT, MAX_DEPTH } from './body.ts'
import { createdParam, versionedPaths } from './versions.ts'
import { isCatalogPath, takesOnlyKnownParameters } from './edge.ts'
import { ERROR_REF, HEADERS, headerRef, type Json, PARAMETERS, parameterRef, TAGS, tagOf } from './openapi-components.ts'

/** How an operation takes part in versions: a GET that answers ETags, or a write that takes If-Match. */
type Versioned = 'read' | 'write' | 'create' | null

function security(def: RouteDef) {
  if (def.auth === 'public') return []
  const scopes = def.auth === 'any' ? [] : [def.auth]
  if (def.session) return [{ session: scopes }]
  // A key first: it is what a script, the reader of this document, sends.
  const schemes: Json[] = []
  if (def.auth === 'any' || !UNSCOPABLE.includes(def.auth as Capability)) schemes.push({ bearer: scopes })
  schemes.push({ session: scopes })
  if (!def.person && (def.auth === 'any' || BREAK_GLASS_CAPABILITIES.includes(def.auth as Capability))) schemes.push({ breakGlass: scopes })
  return schemes
}

/** The refusals a route gives by its kind: an unreadable request, no credential, not allowed, input that does not fit. */
function standardAnswers(def: RouteDef, method: string, path: string): Record<number, string> {
  const answers: Record<number, string> = {
    400: `The request URL or its Host header cannot be read${def.body ? `, or the body is not JSON${def.forms ? ' or a form' : ''} or nests deeper than ${MAX_DEPTH} levels` : ''}`,
  }
  if (def.auth !== 'public') {
    answers[400] += ', or both a key and X-Admin-Token were sent (`ambiguous_credentials`)'
    answers[401] = 'No credential, or one that is dead (signed out, disabled, revoked or expired)'
    answers[403] = `The credential may not do this${def.auth === 'any' ? '' : ` (it needs ${def.auth})`}, is used from a network it may not be used from, belongs to a session whose second factor is overdue, or the request is a cross-site browser write`
    answers[429] = 'Too many wrong break-glass tokens from this address: wait as Retry-After says'
  } else if (method !== 'get') answers[403] = 'A cross-site browser write (foreign Origin or Sec-Fetch-Site: cross-site)'
  if (isCatalogPath(path))
    answers[429] = 'More catalog requests from this address this minute than catalog.per_minute allows: wait as Retry-After says'
  if (def.body) {
    answers[413] = `The body is larger than ${def.maxBody ?? DEFAULT_BODY_LIMIT} bytes`
    answers[415] = `The body is not JSON${def.forms ? ' or a form' : ''}`
  }
  if (def.body || def.query || def.params) answers[422] = 'A field does not fit: the detail names it'
  if (takesOnlyKnownParameters(path))
    answers[422] ??= 'A query parameter this operation does not take (`unknown_parameter`), or one sent twice (`repeated_parameter`)'
  if (takesIdempotencyKey(method, def))
    answers[422] = `${answers[422] ? `${answers[422]}; or the` : 'The'} Idempotency-Key is malformed or was used for another request`
  // A write, or a credential's use (a session is kept alive by writing), needs room on the database's disk.
  if (method !== 'get' || def.auth !== 'public')
    answers[507] = 'The disk holding the database is full: nothing was written; the same request works once space is freed'
  return answers
}

/**
 * The codes a refusal may carry at `status`: the status's own, those every route of its kind may give, and the
 * route's own. Listed as an enum on each answer, so the contract check refuses a code a route did not declare.
 */
function refusalCodes(def: RouteDef, method: string, path: string, status: number, declared: string[] = []): string[] {
  const codes = [STATUS_CODES[status] ?? 'error', ...declared]
  if (status === 400 && def.auth !== 'public') codes.push('ambiguous_credentials')
  if (status === 403 && def.auth !== 'public')
    codes.push('capability_missing', 'person_required', 'session_required', 'second_factor_required', 'network_not_allowed')
  if (status === 422 && def.query?.properties?.cursor) codes.push('cursor_invalid', 'cursor_mismatch')
  if (status === 422 && takesIdempotencyKey(method, def)) codes.push('idempotency_key_reused')
  if (status === 422 && takesOnlyKnownParameters(path)) codes.push('unknown_parameter', 'repeated_parameter')
  return [...new Set(codes)]
}

/**
 * An example of a schema: its own, or one composed from the examples of its parts (a wrapper such as
 * `{announcement: Announcement}` shows the announcement's example). Undefined when a required part has none.
 */
function exampleOf(schema: TSchema | undefined): unknown {
  if (!schema) return undefined
  if (schema.examples?.length) return schema.examples[0]
  if ('const' in schema) return schema.const
  if (schema.anyOf) {
    const branches = schema.anyOf as TSchema[]
    for (const branch of [...branches.filter((b) => b.type !== 'null'), ...branches.filter((b) => b.type === 'null')]) {
      const example = branch.type === 'null' ? null : exampleOf(branch)
      if (example !== undefined) return example
    }
    return undefined
  }
  switch (schema.type) {
    case 'object': {
      const example: Record<string, unknown> = {}
      for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, TSchema>)) {
        const value = exampleOf(property)
        if (value !== undefined) example[name] = value
        else if ((schema.required ?? []).includes(name)) return undefined
      }
      return example
    }
    case 'array': {
      const item = exampleOf(schema.items)
      return item === undefined ? [] : [item]
    }
    case 'boolean':
      return true
    case 'integer':
    case 'number':
      return schema.minimum ?? 1
    case 'string':
      return schema.pattern || schema.format ? undefined : 'text'
  }
  return undefined
}

/** Writes operations; schemas with an `$id` (the error model, views several answers share) go once under components. */
class Writer {
  readonly schemas: Record<string, Json> = {}

  constructor() {
    this.plain(ErrorBody)
  }

  /**
   * A TypeBox schema as plain JSON Schema: TypeBox's own markers dropped, `$id` schemas referenced, and examples
   * left to the media type and parameter that show them.
   */
  plain(schema: TSchema): Json {
    const visit = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(visit)
      if (!value || typeof value !== 'object') return value
      const { $id, examples, 'x-one-of': oneOf, 'x-enum': values, ...rest } = value as Json
      // A body of one of several shapes is `oneOf` (TypeBox writes every union as anyOf).
      if (oneOf) Object.assign(rest, { oneOf: rest.anyOf, anyOf: undefined })
      // Values a route checks itself (a 404 for an unknown one) but clients should know.
      if (values) rest.enum = values
      const inner = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, k === 'const' || k === 'default' ? v : visit(v)]))
      if (typeof $id !== 'string') return inner
      this.schemas[$id] ??= inner
      return { $ref: `#/components/schemas/${$id}` }
    }
    return visit(JSON.parse(JSON.stringify(schema))) as Json
  }

  private parameters(def: RouteDef): Json[] {
    const from = (schema: TSchema | undefined, where: 'path' | 'query') =>
      Object.entries((schema?.properties ?? {}) as Record<string, TSchema>).map(([name, s]) => {
        const { description, ...rest } = this.plain(s)
        const example = exampleOf(s)
        return {
          name,
          in: where,
          required: where === 'path' || (schema?.required ?? []).includes(name),
          description: description ?? name,
          schema: rest,
          ...(example === undefined ? {} : { example }),
        }
      })
    return [...from(def.params, 'path'), ...from(def.query, 'query')]
  }

  private content(schema: TSchema | undefined, media = 'application/json'): Json {
    const example = exampleOf(schema)
    return { [media]: { ...(schema ? { schema: this.plain(schema) } : {}), ...(example === undefined ? {} : { example }) } }
  }

  private response(status: number, answer: Answer | string, codes: (declared?: string[]) => string[], extra?: string[]): Json {
    const {
      description,
      schema,
      media,
      codes: declared,
    } = typeof answer === 'string' ? { description: answer, schema: undefined, media: undefined, codes: undefined } : answer
    const headers: Json = {}
    if (status === 401)
      headers['WWW-Authenticate'] = { description: `Which credential to send: \`${WWW_AUTHENTICATE}\``, schema: { type: 'string' } }
    if (status === 429) headers['Retry-After'] = headerRef('Retry-After')
    headers['X-Request-Id'] = headerRef('X-Request-Id')
    if (status < 300 && extra) for (const name of extra) headers[name] = headerRef(name)
    if (status === 303) headers['Location'] = { description: 'Where the browser goes next', schema: { type: 'string' } }
    const base = { description, ...(Object.keys(headers).length ? { headers } : {}) }
    if (status === 303 || status === 304) return status === 304 ? { ...base, headers: { ...headers, ETag: headerRef('ETag') } } : base
    if (media) return { ...base, content: { [media]: { schema: { type: 'string', format: 'binary' } } } }
    if (status >= 400) {
      const allowed = codes(declared)
      const example = exampleOf(schema) ?? { detail: description, code: allowed[0] }
      const refusal = schema
        ? this.plain(schema)
        : { allOf: [ERROR_REF, { type: 'object', properties: { code: { type: 'string', enum: allowed } } }] }
      return { ...base, content: { 'application/json': { schema: refusal, example } } }
    }
    return { ...base, ...(schema ? { content: this.content(schema) } : {}) }
  }

  operation(route: LoadedRoute, versioned: Versioned = null): Json {
    const { def } = route
    const method = route.method.toLowerCase()
    const answers: Record<string, Answer | string | undefined> = { ...standardAnswers(def, method, route.docPath), ...def.responses }
    if (versioned === 'read') answers[304] = 'The resource is still the version named by If-None-Match'
    if (versioned === 'write') answers[412] = 'The resource changed since the ETag sent as If-Match: read it again'
    // With If-Match, what the caller's GET does not show is 404 (file-routes.ts), whatever the write itself says.
    if (versioned === 'write' && route.docPath.includes('{')) answers[404] ??= 'No such resource, or not one you can see'
    const headers = ['X-Request-Id', ...(takesIdempotencyKey(method, def) ? ['IdempotencyKey'] : [])]
    if (versioned === 'read' || versioned === 'write') headers.push(versioned === 'read' ? 'IfNoneMatch' : 'IfMatch')
    const params = [...this.parameters(def), ...headers.map((name) => parameterRef(name === 'X-Request-Id' ? 'XRequestId' : name))]
    const successHeaders = [
      ...(versioned ? ['ETag'] : []),
      ...(takesIdempotencyKey(method, def) ? ['Idempotent-Replayed'] : []),
      ...(def.query?.properties?.cursor ? ['Link'] : []),
    ]
    return {
      operationId: def.operationId,
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
              content: { ...this.content(def.body), ...(def.forms ? this.content(def.body, 'application/x-www-form-urlencoded') : {}) },
            },
          }
        : {}),
      responses: Object.fromEntries(
        Object.entries(answers).flatMap(([status, answer]) =>
          answer
            ? [
                [
                  status,
                  this.response(
                    Number(status),
                    answer,
                    (declared) => refusalCodes(def, method, route.docPath, Number(status), declared),
                    successHeaders,
                  ),
                ],
              ]
            : [],
        ),
      ),
      'x-capability': def.auth,
      'x-route-file': route.file,
    }
  }
}

export function openApiDocument(registry: LoadedRoute[], baseUrl: string): Json {
  const writer = new Writer()
  const paths: Record<string, Json> = {}
  const versioned = versionedPaths(registry)
  const versioning = (route: LoadedRoute): Versioned => {
    if (route.method === 'POST') return !route.tail && createdParam(route.path, versioned) ? 'create' : null
    return !versioned.has(route.path) ? null : route.method === 'GET' ? 'read' : 'write'
  }
  for (const route of registry) (paths[route.docPath] ??= {})[route.method.toLowerCase()] = writer.operation(route, versioning(route))
  // Only the shared parameters and headers some operation refers to (a document of GETs has no Idempotency-Key).
  const text = JSON.stringify(paths)
  const used = <T>(kind: string, all: Record<string, T>) =>
    Object.fromEntries(Object.entries(all).filter(([name]) => text.includes(`"#/components/${kind}/${name}"`)))
  const tagged = new Set(Object.values(paths).flatMap((ops) => Object.values(ops).flatMap((op) => (op as Json).tags as string[])))
  return {
    openapi: '3.1.0',
    info: {
      title: 'Scouting units site: admin API',
      version: '1',
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'The admin API of a website service for a Cub Scout pack and a Scouts BSA troop, and the public routes beside it. ' +
        'Every refusal is `{"detail": "…", "code": "…"}`: plain words and a stable code, listed per answer; a 422 adds `errors` with every problem by field. Each operation names the capability it needs as the scope of ' +
        "every credential that may call it; a key holds its scopes ∩ its owner's capabilities.",
    },
    servers: [{ url: baseUrl, description: 'This service' }],
    tags: TAGS.filter((t) => tagged.has(t.name)).map(({ name, description }) => ({ name, description })),
    paths,
    components: {
      schemas: writer.schemas,
      parameters: used('parameters', PARAMETERS),
      headers: used('headers', HEADERS),
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
