// GET /api/catalog/variants/:id: one variant by its stable id, wherever it is.
import { VariantParams, variantById } from '#server/catalog/browse.ts'
import { cachedJson } from '#server/catalog/http.ts'
import { Row } from '#server/catalog/queries.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('public', 'Get a variant by id', {
  operationId: 'getVariant',
  description: 'A variant id stays the same while its season, base_name and variant do. Strong ETag; compressed.',
  params: VariantParams,
  responses: ok(Row, 'The variant', { 304: 'Not modified since the ETag in If-None-Match', 404: 'No such variant (now)' }),
  handler: ({ db, params, request, catalog }) =>
    cachedJson(
      request,
      JSON.stringify(['variant', params.id]),
      () => catalog?.version ?? 0,
      () => variantById(db, params.id),
    ),
})
