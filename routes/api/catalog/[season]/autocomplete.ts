// GET /api/catalog/:season/autocomplete?q=: variants whose row or base name matches, for the bot's prompts.
import { autocompleteResponse } from '#server/catalog/autocomplete.ts'
import { AutocompleteQuery, Matches, SeasonParams } from '#server/catalog/queries.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('public', 'Autocomplete variant names', {
  operationId: 'autocompleteVariants',
  description:
    'Matches row_name and base_name ignoring case and accents: base-name matches before row-name ones, confirmed first within each, then prefix before substring, then by name. ' +
    '`q` in the answer is the query as matched (folded). Strong ETag per encoding; gzip, br, zstd.',
  params: SeasonParams,
  query: AutocompleteQuery,
  responses: ok(Matches, 'The best matches', { 304: 'Not modified since the ETag in If-None-Match', 404: 'No such season' }),
  handler: ({ db, params, query, request, catalog }) =>
    autocompleteResponse(request, db, params.season, () => catalog?.versionOf(params.season) ?? 0, query),
})
