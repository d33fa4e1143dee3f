// GET /api/admin/family: the signed-in person's own active households, scouts, dens, this year's checklist and logs.
import { family } from '#server/family/family.ts'
import { Family } from '#server/family/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('account:self', 'Your family', {
  operationId: 'getFamily',
  description:
    "Your own active households, scouts, dens and this year's checklist, and each scout's log (the events they came to, with this program year's and all time's nights, service hours, miles and meetings); none when your account is not linked.",
  responses: ok(Family, "Your family, without leaders' notes"),
  handler: ({ db, caller }) => family(db, caller),
})
