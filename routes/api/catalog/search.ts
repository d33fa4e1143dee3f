// GET /api/catalog/search: variants of every season by name and filters, ranked, a page at a time.
import { pagedJson, SearchPage, search, SearchQuery } from '#server/catalog/browse.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('public', 'Search every season', {
  operationId: 'searchVariants',
  description:
    '`q` matches words of the base, row and variant names in any order, ignoring case and accents (ø, ł, æ, œ, ß, đ, þ folded too), forgiving one typo in words of 5 letters or more; ranked best first (see `matches`). `match=full|starts|ends|contains` asks instead for base names equal to, starting with, ending with or holding `q`. `season`, `status`, `game_mode` (several values each, comma-separated or repeated), `row_name`, `confirmed` and `added_since` narrow it. Pages with `limit` and `cursor` (`next_cursor`, `Link: rel="next"`); a cursor stays good while the content it pages through is unchanged, and used with other filters answers 422 `cursor_mismatch`. Strong ETag from the content.',
  query: SearchQuery,
  responses: ok(SearchPage, 'One page of matches', {
    304: 'Not modified since the ETag in If-None-Match',
    422: 'A bad filter, limit or cursor (cursor_invalid, cursor_mismatch)',
  }),
  handler: async ({ db, query, request, catalog }) => pagedJson(request, await search(db, catalog?.version ?? 0, query)),
})
