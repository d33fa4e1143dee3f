// GET /api/catalog/changes?since=: what changed since a bot last synced, so it need not fetch whole seasons again.
import { Changes, changesSince, ChangesQuery } from '#server/catalog/browse.ts'
import { cachedJson } from '#server/catalog/http.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('public', 'Changes since a sync', {
  description:
    'Without `since`: every variant as updated. With the `next` of your last answer: the variants added or changed since (with their rows) and the ones removed (tombstones), oldest first. While `more` is true, ask again at once with `since` = `next`. Strong ETag; compressed.',
  query: ChangesQuery,
  responses: ok(Changes, 'The changes', { 304: 'Not modified since the ETag in If-None-Match', 422: 'A bad since or limit' }),
  handler: ({ db, query, request, catalog }) =>
    cachedJson(
      request,
      JSON.stringify(['changes', query]),
      () => catalog?.version ?? 0,
      () => changesSince(db, query),
    ),
})
