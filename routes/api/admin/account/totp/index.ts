// POST/DELETE /api/admin/account/totp: start adding an authenticator app (confirm it with a code), or remove yours.
import { defineRoute, ok } from '#server/routes.ts'
import { Code, Removed, removeTotp, startTotp, TotpStarted } from '#server/second-factor/factors.ts'

export const POST = defineRoute('account:self', 'Start adding an authenticator app', {
  operationId: 'startTotp',
  description:
    'Needs a confirmation in the last 10 minutes (POST /api/admin/account/confirm). A new secret, for the app to scan (otpauth_url as a QR code) or type in; it counts once confirmed with a code from it.',
  session: true,
  accountPage: true,
  responses: ok(TotpStarted, 'The secret, waiting for a code from the app', {
    403: { description: 'Your session has not confirmed it is you in the last 10 minutes', codes: ['confirm_required'] },
    409: 'You have an authenticator app already',
  }),
  handler: ({ db, caller }) => startTotp(db, caller),
})

export const DELETE = defineRoute('account:self', 'Remove your authenticator app', {
  operationId: 'removeTotp',
  description:
    'Needs a confirmation in the last 10 minutes, and a current code from the app or one of your recovery codes. With no second factor left, the recovery codes go too.',
  session: true,
  accountPage: true,
  body: Code,
  responses: ok(Removed, 'Removed', {
    403: { description: 'Your session has not confirmed it is you in the last 10 minutes', codes: ['confirm_required'] },
    404: 'You have no authenticator app',
    422: 'The code is not right',
  }),
  handler: ({ db, mail, caller, address, body, loginThrottle, secondFactorThrottle }) =>
    removeTotp(db, mail, { signIn: loginThrottle, secondFactor: secondFactorThrottle }, caller, address, body),
})
