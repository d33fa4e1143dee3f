// PATCH /api/admin/roster/scouts/:id: edit a scout.
import { changeScout } from '#server/roster/commands.ts'
import { ScoutChange, ScoutRow } from '#server/roster/schemas.ts'
import { defineRoute } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const PATCH = defineRoute({
  auth: 'roster:write',
  person: true,
  summary: 'Edit a scout (partial)',
  params: IdParams,
  body: ScoutChange,
  responses: {
    200: { description: 'The scout after the change', schema: ScoutRow },
    404: 'No such scout',
    422: 'An unknown unit, or a field that does not fit',
  },
  handler: ({ db, caller, params, body }) => changeScout(db, caller, params.id, body),
})
