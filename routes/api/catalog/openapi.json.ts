// GET /api/catalog/openapi.json: the catalog's own OpenAPI document, for bot authors (no credential).
import { cachedJson } from '#server/catalog/http.ts'
import { CatalogDocument, catalogDocument } from '#server/catalog/openapi.ts'
import { defineRoute, loadRoutes, ok } from '#server/routes.ts'

export const GET = defineRoute('public', "The catalog's OpenAPI document", {
  operationId: 'getCatalogOpenApi',
  description:
    'The public catalog operations and their schemas as an OpenAPI 3.1 document, with the request id, CORS and rate-limit fields every catalog answer carries. Strong ETag; compressed.',
  responses: ok(CatalogDocument, 'The document', { 304: 'Not modified since the ETag in If-None-Match' }),
  handler: ({ env, request }) =>
    cachedJson(
      request,
      `openapi ${env.publicBaseUrl}`,
      // The document changes only with the code, which a restart brings.
      () => 0,
      async () => catalogDocument(await loadRoutes(), env.publicBaseUrl),
    ),
})
