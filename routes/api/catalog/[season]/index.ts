// GET /api/catalog/:season: the season's flattened rows, one per variant, optionally filtered.
import { cachedJson } from '#server/catalog/http.ts'
import { SeasonFilters, SeasonParams, SeasonRows, seasonRows } from '#server/catalog/queries.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('public', "Get a season's variants", {
  description: 'One flattened row per variant, defaults applied; filters status, game_mode, row_name. Strong ETag; gzip.',
  params: SeasonParams,
  query: SeasonFilters,
  responses: ok(SeasonRows, 'The rows', { 304: 'Not modified since the ETag in If-None-Match', 404: 'No such season' }),
  handler({ db, params, query, request, catalog }) {
    const key = JSON.stringify(['season', params.season, query.status ?? null, query.game_mode ?? null, query.row_name ?? null])
    // The existence check runs only when the answer is not cached yet, so a 304 touches no table.
    return cachedJson(request, key, catalog?.version ?? 0, () => seasonRows(db, params.season, query))
  },
})
