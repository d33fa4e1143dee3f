// GET /api/admin/history/export: the filtered action log as a CSV download.
import { HistoryFilter, historyCsv } from '#server/history/queries.ts'
import { defineRoute } from '#server/routes.ts'

export const GET = defineRoute({
  auth: 'history:read',
  summary: 'The filtered action log as CSV (`kind`, `actor`, `since`, `before`)',
  query: HistoryFilter,
  responses: { 200: { description: 'A CSV download, newest first', media: 'text/csv' } },
  async handler({ db, query }) {
    return new Response(await historyCsv(db, query), {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="history-${new Date().toISOString().slice(0, 10)}.csv"`,
      },
    })
  },
})
