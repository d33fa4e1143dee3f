// PATCH /api/admin/roster/scouts/:id: edit a scout.
import { changeScout } from '#server/roster/commands.ts'
import { ScoutChange, ScoutRow } from '#server/roster/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const PATCH = defineRoute('roster:write', 'Edit a scout', {
  person: true,
  params: IdParams,
  body: ScoutChange,
  responses: ok(ScoutRow, 'The scout after the change', { 404: 'No such scout', 422: 'An unknown unit, or a field that does not fit' }),
  handler: ({ db, caller, params, body }) => changeScout(db, caller, params.id, body),
})
