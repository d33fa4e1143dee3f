// GET /api/catalog/:season: the season's flattened rows, one per variant, optionally filtered; whole or a page at a time.
import { SeasonPage, seasonPage, SeasonQuery } from '#server/catalog/browse.ts'
import { cachedJson } from '#server/catalog/http.ts'
import { SeasonParams } from '#server/catalog/queries.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('public', "Get a season's variants", {
  description:
    'One flattened row per variant in file order, defaults applied; filters status, game_mode, row_name. Without `limit` and `cursor` the whole season; with them one page and `next_cursor` (null on the last page). A cursor from before the season was reloaded answers 409: start again. Strong ETag; compressed.',
  params: SeasonParams,
  query: SeasonQuery,
  responses: ok(SeasonPage, 'The rows', {
    304: 'Not modified since the ETag in If-None-Match',
    404: 'No such season',
    409: 'The season was reloaded since the cursor was given',
    422: 'A bad filter, limit or cursor',
  }),
  handler({ db, params, query, request, catalog }) {
    const key = JSON.stringify(['season', params.season, query])
    // The existence check runs only when the answer is not cached yet, so a 304 touches no table.
    return cachedJson(
      request,
      key,
      () => catalog?.versionOf(params.season) ?? 0,
      () => seasonPage(db, params.season, query),
    )
  },
})
