// GET /api/catalog: the seasons with their counts, for the trading bot.
import { cachedJson } from '#server/catalog/http.ts'
import { seasons, Seasons } from '#server/catalog/queries.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('public', 'List seasons', {
  operationId: 'listSeasons',
  description: 'Each season with its counts of variants, released, hidden, unreleased and confirmed. Strong ETag; gzip.',
  responses: ok(Seasons, 'The seasons', { 304: 'Not modified since the ETag in If-None-Match' }),
  handler: ({ db, request, catalog }) =>
    cachedJson(
      request,
      'seasons',
      () => catalog?.version ?? 0,
      () => seasons(db),
    ),
})
