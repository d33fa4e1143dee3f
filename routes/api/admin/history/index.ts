// GET /api/admin/history: the action log, newest first, filtered by kind prefix and actor, paged by cursor.
import { history, HistoryPage, HistoryQuery } from '#server/history/queries.ts'
import { nextLink } from '#server/http/paging.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('history:read', 'Read the action log', {
  operationId: 'listHistory',
  description:
    'Newest first; `kind` is a prefix, `actor` exact. Page with `limit` and the `next_cursor` of the previous page as `cursor` (also in the `Link` header). Older form: pass the `next` of the previous page as `before` and `before_id`.',
  query: HistoryQuery,
  responses: ok(HistoryPage, 'One page of the log', {
    422: 'since or before is not a real RFC 3339 moment, or a cursor not for these filters',
  }),
  async handler({ db, query, request, set }) {
    const page = await history(db, query)
    Object.assign(set.headers, nextLink(request, page.next_cursor))
    return page
  },
})
