// GET /api/admin/history/export: the filtered action log as a CSV download.
import { t } from '../../../../server/schemas.ts'
import { historyQuery, HistoryFilterQuery } from '../../../../server/history/queries.ts'
import { csvDocument } from '../../../../server/csv.ts'
import { defineRoute } from '../../../../server/routes.ts'

const MAX_ROWS = 100_000

export const GET = defineRoute({
  auth: 'history:read',
  summary: 'The filtered action log as CSV (`kind`, `actor`, `since`, `before`)',
  query: t.Object(HistoryFilterQuery),
  async handler({ db, query, set }) {
    const rows = await historyQuery(db, query).limit(MAX_ROWS).execute()
    const body = csvDocument(
      ['id', 'at', 'kind', 'actor', 'summary'],
      rows.map((r) => [r.id, r.at, r.kind, r.actor, r.summary]),
    )
    set.headers['content-type'] = 'text/csv; charset=utf-8'
    set.headers['content-disposition'] = `attachment; filename="history-${new Date().toISOString().slice(0, 10)}.csv"`
    return body
  },
})
