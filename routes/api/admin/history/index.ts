// GET /api/admin/history: the action log, newest first, filtered by kind prefix and actor, paged by `before`.
import { history, HistoryPage, HistoryQuery } from '#server/history/queries.ts'
import { defineRoute } from '#server/routes.ts'

export const GET = defineRoute({
  auth: 'history:read',
  summary: 'Action log, newest first; `kind` prefix, `actor`, `before` paging, `limit`',
  query: HistoryQuery,
  responses: {
    200: { description: 'One page of the log', schema: HistoryPage },
    422: 'since or before is not a timestamp, or another query value does not fit',
  },
  handler: ({ db, query }) => history(db, query),
})
