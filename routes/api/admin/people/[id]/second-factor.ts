// DELETE /api/admin/people/:id/second-factor: remove someone's second factors (a lost phone); owners only, logged.
import { defineRoute, ok } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'
import { FactorsRemoved, removeFactorsOf } from '#server/second-factor/factors.ts'

export const DELETE = defineRoute('people:manage', "Remove someone's second factors", {
  operationId: 'removeSecondFactor',
  description:
    'Their authenticator app, passkeys and recovery codes go; they add a new one at their next sign-in. A reset link never removes them.',
  params: IdParams,
  responses: ok(FactorsRemoved, 'Removed', { 404: 'No such person' }),
  handler: ({ db, mail, caller, params }) => removeFactorsOf(db, mail, caller, params.id),
})
