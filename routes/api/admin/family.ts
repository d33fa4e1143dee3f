// GET /api/admin/family: the signed-in person's own active households, scouts, dens and this year's checklist.
import { family } from '#server/roster/queries.ts'
import { Family } from '#server/roster/schemas.ts'
import { defineRoute } from '#server/routes.ts'

export const GET = defineRoute({
  auth: 'account:self',
  summary: "Your own households, scouts, dens and this year's checklist (none when your account is not linked)",
  responses: { 200: { description: "Your family, without leaders' notes", schema: Family } },
  handler: ({ db, caller }) => family(db, caller),
})
