// POST /api/admin/roster/households: a household from its fields, or `lead_id` alone to import a join-form lead.
import { createHousehold } from '#server/roster/commands.ts'
import { RosterHousehold, NewHousehold } from '#server/roster/schemas.ts'
import { created, defineRoute } from '#server/routes.ts'

export const POST = defineRoute('roster:write', 'Create a household', {
  operationId: 'createHousehold',
  description: 'From its fields (parent_name required), or copied from a join-form lead with `lead_id` alone; the lead stays as it is.',
  person: true,
  body: NewHousehold,
  responses: created(RosterHousehold, 'The new household', {
    409: 'The lead was imported already',
    422: 'No parent_name, an unknown lead, or lead_id sent with other fields',
  }),
  handler: ({ db, caller, body }) => createHousehold(db, caller, body),
})
