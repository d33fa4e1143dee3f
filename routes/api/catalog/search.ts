// GET /api/catalog/search: variants of every season by name and filters, a page at a time.
import { SearchPage, search, SearchQuery } from '#server/catalog/browse.ts'
import { cachedJson } from '#server/catalog/http.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('public', 'Search every season', {
  description:
    '`q` matches base, row and variant names ignoring case and accents; `season`, `status`, `game_mode` and `row_name` narrow it. Pages in season order (`limit`, `next_cursor`); a cursor from before a reload answers 409. Strong ETag; compressed.',
  query: SearchQuery,
  responses: ok(SearchPage, 'One page of matches', {
    304: 'Not modified since the ETag in If-None-Match',
    409: 'The catalog was reloaded since the cursor was given',
    422: 'A bad filter, limit or cursor',
  }),
  handler: ({ db, query, request, catalog }) =>
    cachedJson(
      request,
      JSON.stringify(['search', query]),
      () => catalog?.version ?? 0,
      () => search(db, query),
    ),
})
