// GET /api/admin/money/unmatched: online payments whose reference named no household, waiting to be assigned.
import { listUnmatched } from '#server/money/online.ts'
import { UnmatchedList } from '#server/money/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('money:write', 'List unmatched online payments', {
  operationId: 'listUnmatchedPayments',
  description: 'Oldest first: each with its amount, the reference it carried and the address the payer gave, to tell whose it is.',
  responses: ok(UnmatchedList, 'The payments waiting for a household'),
  handler: ({ db }) => listUnmatched(db),
})
