// GET /api/admin/money/report.csv?unit=&from=&to=: the period's entries as CSV, for the unit's books.
import { csvDownload } from '#server/csv.ts'
import { reportCsv } from '#server/money/report.ts'
import { ReportQuery } from '#server/money/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('money:write', "Download the period's entries as CSV", {
  operationId: 'exportMoneyReport',
  description:
    'One line per entry dated in the period, oldest first: the household and its payment reference, the scout, kind, amount in dollars (a reversal negative), memo, event, method, reference and who wrote it. UTF-8 with a byte-order mark, so spreadsheets keep accented names; cells a spreadsheet would run start with a quote.',
  query: ReportQuery,
  responses: ok({ media: 'text/csv' }, 'A CSV download', {
    403: { description: 'A unit the caller does not lead', codes: ['unit_out_of_scope'] },
    422: 'A period that ends before it starts',
  }),
  async handler({ db, caller, query }) {
    const { filename, csv } = await reportCsv(db, caller, query)
    return csvDownload(filename, csv)
  },
})
