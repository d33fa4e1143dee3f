// POST /api/admin/roster/households/:id/scouts: add a scout to a household.
import { addScout } from '#server/roster/commands.ts'
import { NewScout, ScoutView } from '#server/roster/schemas.ts'
import { created, defineRoute } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const POST = defineRoute('roster:write', 'Add a scout', {
  operationId: 'addScout',
  description: 'first_name and unit_id are required; org_member_id is 6 to 12 digits.',
  person: true,
  params: IdParams,
  body: NewScout,
  responses: created(ScoutView, 'The new scout', { 404: 'No such household', 422: 'An unknown unit, or a field that does not fit' }),
  handler: ({ db, caller, params, body }) => addScout(db, caller, params.id, body),
})
