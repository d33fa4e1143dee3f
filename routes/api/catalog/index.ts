// GET /api/catalog: the seasons with their counts, for the trading bot.
import { cachedJson } from '#server/catalog/http.ts'
import { Seasons, seasons } from '#server/catalog/queries.ts'
import { defineRoute } from '#server/routes.ts'

export const GET = defineRoute({
  auth: 'public',
  summary: 'Seasons with counts of variants, released, hidden, unreleased and confirmed',
  responses: {
    200: { description: 'The seasons (strong ETag; gzipped when accepted)', schema: Seasons },
    304: 'Not modified since the ETag in If-None-Match',
  },
  handler: ({ db, request, catalog }) => cachedJson(request, 'seasons', catalog?.version ?? 0, () => seasons(db)),
})
