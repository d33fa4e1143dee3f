// GET /api/admin/history/export: the filtered action log as a CSV download.
import { HistoryFilter, historyCsv } from '#server/history/queries.ts'
import { csvDownload } from '#server/csv.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('history:read', 'Download the action log as CSV', {
  operationId: 'exportHistory',
  description: 'The same filters as the list (`kind`, `actor`, `since`, `before`), newest first.',
  query: HistoryFilter,
  responses: ok({ media: 'text/csv' }, 'A CSV download'),
  async handler({ db, query }) {
    const filename = `history-${new Date().toISOString().slice(0, 10)}.csv`
    return csvDownload(filename, historyCsv(db, query))
  },
})
