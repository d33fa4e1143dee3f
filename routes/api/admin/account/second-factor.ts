// GET /api/admin/account/second-factor: your second factors, when each was last used, the recovery codes left, and
// whether the site asks you for one.
import { defineRoute, ok } from '#server/routes.ts'
import { secondFactorOverview, SecondFactorOverview } from '#server/second-factor/factors.ts'

export const GET = defineRoute('account:self', 'Your second factors', {
  operationId: 'getSecondFactor',
  session: true,
  accountPage: true,
  responses: ok(SecondFactorOverview, 'Your authenticator app and passkeys, with the recovery codes left'),
  handler: ({ db, caller }) => secondFactorOverview(db, caller),
})
