// GET /api/catalog/changes?since=: what changed since a bot last synced, so it need not fetch whole seasons again.
import { Changes, changesSince, ChangesQuery, pagedJson } from '#server/catalog/browse.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('public', 'Changes since a sync', {
  operationId: 'listCatalogChanges',
  description:
    'Without `since`: every variant as updated. With `since` = the `next` of your last answer, or an RFC 3339 date-time: the variants added or changed since (with their rows) and the ones removed (tombstones), oldest first. Pages with `limit` and `cursor` (`next_cursor`, null on the last page, and `Link: rel="next"`); the older form, still answered: while `more` is true, ask again with `since` = `next`. Strong ETag from the content.',
  query: ChangesQuery,
  responses: ok(Changes, 'The changes', {
    304: 'Not modified since the ETag in If-None-Match',
    422: 'A bad since, cursor or limit (an impossible date such as 2027-02-30 too)',
  }),
  handler: async ({ db, query, request }) => pagedJson(request, await changesSince(db, query)),
})
