// PUT /api/admin/roster/scouts/:id/checks/:item: tick dues or health_form for this program year (who and when are kept).
import { recordCheck } from '#server/roster/commands.ts'
import { CheckInput, CheckItem, CheckRecorded } from '#server/roster/schemas.ts'
import { defineRoute } from '#server/routes.ts'
import { Id, t } from '#server/schemas.ts'

export const PUT = defineRoute({
  auth: 'roster:write',
  person: true,
  summary: "Record this year's dues or health_form check; for health forms only the fact one was collected is kept",
  params: t.Object({ id: Id, item: CheckItem }),
  body: CheckInput,
  responses: {
    200: { description: 'The check as recorded', schema: CheckRecorded },
    404: 'No such scout',
    422: 'An item other than dues or health_form',
  },
  handler: ({ db, caller, params, body }) => recordCheck(db, caller, params.id, params.item, body),
})
