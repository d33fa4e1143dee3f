// GET /api/admin/money/report?unit=&from=&to=: the treasurer's report for a period.
import { moneyReport } from '#server/money/report.ts'
import { MoneyReport, ReportQuery } from '#server/money/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('money:write', "The treasurer's report", {
  operationId: 'moneyReport',
  description:
    "For the period (`from`–`to`, both days included; from the start of this program year to today by default): the cents of each kind, of each event (charges and payments) and of each payment method (payments and refunds), reversals taken off, and each account's balance before and at the end of the period.",
  query: ReportQuery,
  responses: ok(MoneyReport, 'The report', {
    403: { description: 'A unit the caller does not lead', codes: ['unit_out_of_scope'] },
    422: 'A period that ends before it starts',
  }),
  handler: ({ db, caller, query }) => moneyReport(db, caller, query),
})
