// GET /api/admin/family/money: what your household owes and has paid, each scout's entries, and how to pay.
import { ownHouseholdIds } from '#server/roster/own-households.ts'
import { familyStatements } from '#server/money/statement.ts'
import { FamilyMoney } from '#server/money/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('account:self', "Your family's money", {
  operationId: 'getFamilyMoney',
  description:
    "For each of your households with money entries: each scout's entries this program year and balance, the family's own, what is owed in all, and a Pay link for each way the unit takes payments (the card link carries your household's payment reference).",
  responses: ok(FamilyMoney, 'Your statements'),
  handler: async ({ db, caller }) => familyStatements(db, await ownHouseholdIds(db, caller)),
})
