// POST /api/admin/roster/households: a household from its fields, or `lead_id` alone to import a join-form lead.
import { createHousehold } from '#server/roster/commands.ts'
import { HouseholdView, NewHousehold } from '#server/roster/schemas.ts'
import { defineRoute } from '#server/routes.ts'

export const POST = defineRoute({
  auth: 'roster:write',
  person: true,
  summary: 'Create a household (parent_name required), or import a lead with `lead_id` alone (409 if imported already)',
  body: NewHousehold,
  responses: {
    201: { description: 'The new household', schema: HouseholdView },
    409: 'The lead was imported already',
    422: 'No parent_name, an unknown lead, lead_id sent with other fields, or a field that does not fit',
  },
  handler: ({ db, caller, body }) => createHousehold(db, caller, body),
})
