// GET /api/catalog/autocomplete?q=: variants of every season whose base or row name matches, for a slash command.
import { AllAutocompleteQuery, allAutocompleteResponse, AllMatches } from '#server/catalog/autocomplete-all.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('public', 'Autocomplete across seasons', {
  operationId: 'autocompleteAllSeasons',
  description:
    'As a season’s autocomplete, across every season: base-name matches before row-name ones, confirmed before unconfirmed within each, prefix before substring; the newest season first on ties. `limit` 1–25 (a Discord choice list). Strong ETag per encoding; compressed.',
  query: AllAutocompleteQuery,
  responses: ok(AllMatches, 'The best matches', { 304: 'Not modified since the ETag in If-None-Match' }),
  handler: ({ db, query, request, catalog }) =>
    allAutocompleteResponse(
      request,
      db,
      () => catalog?.version ?? 0,
      (season) => catalog?.versionOf(season) ?? 0,
      query,
    ),
})
