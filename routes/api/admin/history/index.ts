// GET /api/admin/history: the action log, newest first, filtered by kind prefix and actor, paged by `before`.
import { t } from '../../../../server/schemas.ts'
import { historyQuery, HistoryFilterQuery } from '../../../../server/history/queries.ts'
import { defineRoute } from '../../../../server/routes.ts'

export const GET = defineRoute({
  auth: 'history:read',
  summary: 'Action log, newest first; `kind` prefix, `actor`, `before` paging, `limit`',
  query: t.Object({
    ...HistoryFilterQuery,
    before_id: t.Optional(t.Integer({ minimum: 1, description: 'With `before`: the id of the last entry seen, for ties' })),
    limit: t.Optional(t.Integer({ minimum: 1, maximum: 500, default: 50 })),
  }),
  async handler({ db, query }) {
    const limit = query.limit ?? 50
    const rows = await historyQuery(db, query)
      .limit(limit + 1)
      .execute()
    const entries = rows.slice(0, limit)
    const last = entries.at(-1)
    return { entries, next: rows.length > limit && last ? { before: last.at, before_id: last.id } : null }
  },
})
