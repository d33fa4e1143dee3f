// POST /api/admin/money/unmatched/:id/assign: give an unmatched online payment to a household; its entry is written.
import { assignUnmatched } from '#server/money/online.ts'
import { AssignBody, EntryAnswer } from '#server/money/schemas.ts'
import { created, defineRoute } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const POST = defineRoute('money:write', 'Assign an unmatched online payment', {
  operationId: 'assignUnmatchedPayment',
  description: 'Writes the payment entry for the household, as if the payment had carried its reference.',
  params: IdParams,
  body: AssignBody,
  responses: created(EntryAnswer, 'The payment entry', {
    403: { description: 'The household is outside the units the caller leads', codes: ['unit_out_of_scope'] },
    404: 'No such online payment',
    409: { description: 'The payment was assigned already', codes: ['already_assigned'] },
    422: 'No such household',
  }),
  handler: ({ db, caller, params, body }) => assignUnmatched(db, caller, params.id, body.household_id),
})
