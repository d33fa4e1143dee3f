// GET/PATCH /api/admin/roster/scouts/:id: one scout with this year's checks, as its household shows it; edit it.
import { changeScout } from '#server/roster/commands.ts'
import { scoutById } from '#server/roster/queries.ts'
import { ScoutChange, ScoutView } from '#server/roster/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const GET = defineRoute('roster:write', 'Get a scout', {
  operationId: 'getScout',
  description: "With the unit and this program year's checks, as the roster and its household show it.",
  params: IdParams,
  responses: ok(ScoutView, 'The scout', { 404: 'No such scout' }),
  handler: ({ db, params }) => scoutById(db, params.id),
})

export const PATCH = defineRoute('roster:write', 'Edit a scout', {
  operationId: 'updateScout',
  person: true,
  params: IdParams,
  body: ScoutChange,
  responses: ok(ScoutView, 'The scout after the change', { 404: 'No such scout', 422: 'An unknown unit, or a field that does not fit' }),
  handler: ({ db, caller, params, body }) => changeScout(db, caller, params.id, body),
})
