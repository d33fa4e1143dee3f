// GET /api/admin/history/export: the filtered action log as a CSV download.
import { t } from 'elysia'
import { historyQuery, HistoryFilterQuery } from '../../../../server/history/queries.ts'
import { defineRoute } from '../../../../server/routes.ts'

const MAX_ROWS = 100_000

// Quotes every cell, and defuses leading = + - @ so a spreadsheet never runs a cell as a formula.
const cell = (value: string | number) => {
  const text = String(value)
  return `"${(/^[=+\-@\t\r]/.test(text) ? "'" + text : text).replaceAll('"', '""')}"`
}

export const GET = defineRoute({
  auth: 'history:read',
  summary: 'The filtered action log as CSV (`kind`, `actor`, `since`, `before`)',
  query: t.Object(HistoryFilterQuery),
  async handler({ db, query, set }) {
    const rows = await historyQuery(db, query).limit(MAX_ROWS).execute()
    const lines = ['id,at,kind,actor,summary', ...rows.map((r) => [r.id, r.at, r.kind, r.actor, r.summary].map(cell).join(','))]
    set.headers['content-type'] = 'text/csv; charset=utf-8'
    set.headers['content-disposition'] = `attachment; filename="history-${new Date().toISOString().slice(0, 10)}.csv"`
    return lines.join('\r\n') + '\r\n'
  },
})
