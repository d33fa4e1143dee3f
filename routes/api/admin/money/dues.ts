// POST /api/admin/money/dues: charge the program year's dues to every scout of a unit who has not been charged yet.
import { chargeDues } from '#server/money/commands.ts'
import { DuesAnswer, DuesBody } from '#server/money/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const POST = defineRoute('money:write', 'Charge dues', {
  operationId: 'chargeDues',
  description:
    "Charges `amount_cents` to every scout of the unit's active households for the program year, once: run again, it charges only scouts added since and lists those charged before. A scout whose dues are covered (their own balance, or their household's, owes nothing) has the roster's dues check ticked by itself.",
  body: DuesBody,
  responses: ok(DuesAnswer, 'Who was charged now and who before', {
    403: { description: 'A unit the caller does not lead', codes: ['unit_out_of_scope'] },
  }),
  handler: ({ db, caller, body }) => chargeDues(db, caller, body),
})
