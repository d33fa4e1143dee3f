// GET /api/admin/family: the signed-in person's own active households, scouts, dens and this year's checklist.
import { family } from '#server/family/family.ts'
import { Family } from '#server/family/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('account:self', 'Your family', {
  operationId: 'getFamily',
  description: "Your own active households, scouts, dens and this year's checklist; none when your account is not linked.",
  responses: ok(Family, "Your family, without leaders' notes"),
  handler: ({ db, caller }) => family(db, caller),
})
