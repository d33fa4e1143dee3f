// GET /api/catalog/variants?ids=: up to 100 variants by id in one request, for a bot refreshing what it holds.
import { pagedJson, Variants, variantsByIds, VariantsQuery } from '#server/catalog/browse.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('public', 'Get variants by id', {
  operationId: 'getVariants',
  description:
    'Up to 100 variants by id (`ids=a,b` or `ids` repeated), found in the order asked; ids that name no variant now are listed in `missing` rather than refused. Strong ETag from the content.',
  query: VariantsQuery,
  responses: ok(Variants, 'The variants found, and the ids missing', {
    304: 'Not modified since the ETag in If-None-Match',
    422: 'No ids, more than 100, or an id too long',
  }),
  handler: async ({ db, query, request }) => pagedJson(request, await variantsByIds(db, query.ids)),
})
