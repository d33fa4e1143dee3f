// GET /api/catalog/:season/autocomplete?q=: variants whose row or base name matches, for the bot's prompts.
import { autocomplete, AutocompleteQuery, Matches, SeasonParams } from '#server/catalog/queries.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('public', 'Autocomplete variant names', {
  description: 'Matches row_name and base_name: confirmed first, then prefix before substring, then by name.',
  params: SeasonParams,
  query: AutocompleteQuery,
  responses: ok(Matches, 'The best matches', { 404: 'No such season' }),
  handler: ({ db, params, query }) => autocomplete(db, params.season, query),
})
