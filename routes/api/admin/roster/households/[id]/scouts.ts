// POST /api/admin/roster/households/:id/scouts: add a scout to a household.
import { addScout } from '#server/roster/commands.ts'
import { NewScout, ScoutRow } from '#server/roster/schemas.ts'
import { defineRoute } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const POST = defineRoute({
  auth: 'roster:write',
  person: true,
  summary: 'Add a scout (first_name and unit_id required; org_member_id 6 to 12 digits)',
  params: IdParams,
  body: NewScout,
  responses: {
    201: { description: 'The new scout', schema: ScoutRow },
    404: 'No such household',
    422: 'No first_name, an unknown unit, an org_member_id that is not 6 to 12 digits, or another field that does not fit',
  },
  handler: ({ db, caller, params, body }) => addScout(db, caller, params.id, body),
})
