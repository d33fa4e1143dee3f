// The catalog's own OpenAPI document (GET /api/catalog/openapi.json), for bot authors, who have no credential to
// read the full one: the public catalog operations only, built by the same writer from the same route registry, with
// what the edges add to every catalog answer (request id, CORS, the rate limit).
import { Type as t } from '@sinclair/typebox'
import { isCatalogPath } from '../http/edge.ts'
import { openApiDocument } from '../http/openapi.ts'
import type { LoadedRoute } from '../routes.ts'

type Json = Record<string, unknown>
/** The parts of the writer's document this file reads or adds to (its operations' answers and its components). */
interface Written {
  info: Json
  paths: Record<string, Record<string, { responses: Record<string, { headers?: Json }> }>>
  components: { securitySchemes?: unknown; headers?: Json } & Json
}

const header = (description: string, example: string) => ({ description, schema: { type: 'string' }, example })

/** The fields every catalog answer carries besides the request id (which the admin document's writer declares). */
const HEADERS: Json = {
  RateLimit: header(
    'The quota left in the current window (`r`) and the seconds until it is restored (`t`), IETF draft-ietf-httpapi-ratelimit-headers',
    '"default";r=599;t=42',
  ),
  'RateLimit-Policy': header(
    'The quota (`q`) per window of `w` seconds, per client address (the setting catalog.per_minute)',
    '"default";q=600;w=60',
  ),
  'Access-Control-Allow-Origin': header('Any web page may read the catalog', '*'),
}
const ref = (name: string) => ({ $ref: `#/components/headers/${name}` })
const ON_EVERY_ANSWER = ['RateLimit', 'RateLimit-Policy', 'Access-Control-Allow-Origin']

/** The public catalog operations of `registry` as one OpenAPI 3.1 document. */
export function catalogDocument(registry: LoadedRoute[], baseUrl: string): Json {
  const document = openApiDocument(
    registry.filter((route) => route.def.auth === 'public' && isCatalogPath(route.docPath)),
    baseUrl,
  ) as Json & Written
  for (const operations of Object.values(document.paths))
    for (const operation of Object.values(operations)) {
      for (const response of Object.values(operation.responses))
        for (const name of ON_EVERY_ANSWER) (response.headers ??= {})[name] = ref(name)
    }
  // Every operation here is public: the credentials of the admin API are not part of this document.
  const { securitySchemes: _, ...components } = document.components
  return {
    ...document,
    info: {
      ...document.info,
      title: 'Scouting units site: season catalog',
      description:
        'The season catalog, read by trading bots: no credential. Every answer carries X-Request-Id, CORS (any origin; ' +
        'preflight OPTIONS answers 204) and the IETF RateLimit and RateLimit-Policy fields; past the per-address limit ' +
        '(catalog.per_minute, 600 a minute unless the site changes it) the answer is 429 with Retry-After. Every refusal is ' +
        '`{"detail", "code"}`. Answers carry a strong ETag: send If-None-Match to get 304.',
    },
    components: { ...components, headers: { ...components.headers, ...HEADERS } },
  }
}

/** What GET /api/catalog/openapi.json answers: an OpenAPI 3.1 document (described loosely: its parts are OpenAPI's). */
export const CatalogDocument = t.Object(
  {
    openapi: t.String({ description: 'The OpenAPI version, 3.1.0' }),
    info: t.Object({ title: t.String(), version: t.String() }, { additionalProperties: true }),
    servers: t.Array(t.Object({ url: t.String(), description: t.Optional(t.String()) }, { additionalProperties: false })),
    tags: t.Array(t.Object({ name: t.String(), description: t.String() }, { additionalProperties: false })),
    paths: t.Record(t.String(), t.Unknown(), { description: 'The public catalog operations, by path' }),
    components: t.Record(t.String(), t.Unknown()),
  },
  {
    additionalProperties: false,
    examples: [
      {
        openapi: '3.1.0',
        info: { title: 'Scouting units site: season catalog', version: '1' },
        servers: [{ url: 'https://scouts.example.org', description: 'This service' }],
        tags: [{ name: 'Catalog', description: 'The season catalog, read by the trading bot.' }],
        paths: { '/api/catalog': { get: { operationId: 'getCatalog' } } },
        components: { schemas: {} },
      },
    ],
  },
)
