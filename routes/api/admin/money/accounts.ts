// GET /api/admin/money/accounts: each household's balance and each scout's, with the totals owed and in credit.
import { listAccounts } from '#server/money/queries.ts'
import { AccountList, AccountQuery } from '#server/money/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('money:write', 'List money accounts', {
  operationId: 'listMoneyAccounts',
  description:
    "One account per active household with a scout in the unit (or in the units the caller leads) — its balance is everything the household owes, its scouts' entries included — followed by one per scout with that scout's own entries. A positive balance is owed to the unit.",
  query: AccountQuery,
  responses: ok(AccountList, 'The accounts and their totals', {
    403: { description: 'A unit the caller does not lead', codes: ['unit_out_of_scope'] },
  }),
  handler: ({ db, caller, query }) => listAccounts(db, caller, query),
})
