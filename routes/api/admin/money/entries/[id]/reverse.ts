// POST /api/admin/money/entries/:id/reverse: undo an entry with a new one counting the other way; once per entry.
import { reverseEntry } from '#server/money/commands.ts'
import { EntryAnswer, ReverseBody } from '#server/money/schemas.ts'
import { created, defineRoute } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const POST = defineRoute('money:write', 'Reverse a money entry', {
  operationId: 'reverseMoneyEntry',
  description:
    'Writes a reversing entry: the same kind, amount, scout or household and event, dated today, whose effect on the balance is the other way. The entry itself stays, with `reversed_by_id`.',
  params: IdParams,
  body: ReverseBody,
  responses: created(EntryAnswer, 'The reversing entry', {
    403: { description: 'The household is outside the units the caller leads', codes: ['unit_out_of_scope'] },
    404: 'No such entry',
    409: { description: 'The entry was reversed already, or is itself a reversal', codes: ['already_reversed', 'is_reversal'] },
  }),
  handler: ({ db, caller, params, body }) => reverseEntry(db, caller, params.id, body.memo),
})
