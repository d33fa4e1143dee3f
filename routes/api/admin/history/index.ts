// GET /api/admin/history: the action log, newest first, filtered by kind prefix and actor, paged by `before`.
import { history, HistoryPage, HistoryQuery } from '#server/history/queries.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('history:read', 'Read the action log', {
  description: 'Newest first; `kind` is a prefix, `actor` exact; page with the `next` of the previous page.',
  query: HistoryQuery,
  responses: ok(HistoryPage, 'One page of the log', { 422: 'since or before is not a timestamp' }),
  handler: ({ db, query }) => history(db, query),
})
