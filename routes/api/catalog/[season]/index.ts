// GET /api/catalog/:season: the season's flattened rows, one per variant, optionally filtered; whole or a page at a time.
import { isPaged, pagedJson, SeasonPage, seasonPage, SeasonQuery } from '#server/catalog/browse.ts'
import { cachedJson } from '#server/catalog/http.ts'
import { SeasonParams } from '#server/catalog/queries.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('public', "Get a season's variants", {
  operationId: 'getSeason',
  description:
    'One flattened row per variant in file order, defaults applied; filters status and game_mode (several values, comma-separated or repeated), row_name (ignoring case and accents), confirmed and added_since. Without `limit` and `cursor` the whole season (compressed); with them one page, `next_cursor` (null on the last page) and `Link: rel="next"`. A cursor is a place in the file: it stays good across reloads of the same content, and used with another season or other filters answers 422 `cursor_mismatch`. Strong ETag from the content.',
  params: SeasonParams,
  query: SeasonQuery,
  responses: ok(SeasonPage, 'The rows', {
    304: 'Not modified since the ETag in If-None-Match',
    404: 'No such season',
    422: 'A bad filter, limit or cursor (cursor_invalid, cursor_mismatch)',
  }),
  async handler({ db, params, query, request, catalog }) {
    if (isPaged(query)) return pagedJson(request, await seasonPage(db, params.season, query))
    // The existence check runs only when the answer is not cached yet, so a 304 touches no table.
    return cachedJson(
      request,
      JSON.stringify(['season', params.season, query]),
      () => catalog?.versionOf(params.season) ?? 0,
      () => seasonPage(db, params.season, query),
    )
  },
})
