// POST /api/admin/account/totp/confirm: a code from the new app makes it count; a first factor brings recovery codes.
import { defineRoute, ok } from '#server/routes.ts'
import { Code, confirmTotp, TotpConfirmed } from '#server/second-factor/factors.ts'

export const POST = defineRoute('account:self', 'Confirm your authenticator app', {
  operationId: 'confirmTotp',
  description: 'With a code the app shows now. If it is your first second factor, ten recovery codes come back: they are shown this once.',
  session: true,
  accountPage: true,
  body: Code,
  responses: ok(TotpConfirmed, 'Confirmed; recovery codes when this is your first second factor (else none)', {
    409: 'No authenticator app is waiting to be confirmed',
    422: 'The code is not the one the app shows now',
  }),
  handler: ({ db, mail, caller, body }) => confirmTotp(db, mail, caller, body),
})
