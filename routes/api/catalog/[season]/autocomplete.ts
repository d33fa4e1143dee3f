// GET /api/catalog/:season/autocomplete?q=: variants whose row or base name matches, for the bot's prompts.
import { autocomplete, AutocompleteQuery, Matches, SeasonParams } from '#server/catalog/queries.ts'
import { defineRoute } from '#server/routes.ts'

export const GET = defineRoute({
  auth: 'public',
  summary: 'Autocomplete on row_name and base_name: prefix before substring, unconfirmed last',
  params: SeasonParams,
  query: AutocompleteQuery,
  responses: { 200: { description: 'The best matches', schema: Matches }, 404: 'No such season' },
  handler: ({ db, params, query }) => autocomplete(db, params.season, query),
})
