// PUT /api/admin/roster/scouts/:id/checks/:item: tick dues or health_form for this program year (who and when are kept).
import { recordCheck } from '#server/roster/commands.ts'
import { CheckInput, CheckItem, CheckRecorded } from '#server/roster/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { Id, t } from '#server/schemas.ts'

export const PUT = defineRoute('roster:write', "Record this year's dues or health form", {
  operationId: 'setCheck',
  description: 'Who and when are kept. For a health form only the fact that one was collected is stored, nothing medical.',
  person: true,
  params: t.Object({ id: Id, item: CheckItem }),
  body: CheckInput,
  responses: ok(CheckRecorded, 'The check as recorded', { 404: 'No such scout', 422: 'An item other than dues or health_form' }),
  handler: ({ db, caller, params, body }) => recordCheck(db, caller, params.id, params.item, body),
})
