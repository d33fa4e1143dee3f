// POST /api/admin/account/confirm: confirm it is you (password, code or passkey); the session may then add factors and mint keys for 10 minutes.
import { Confirmation, confirmSession, Confirmed } from '#server/account/confirm.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const POST = defineRoute('account:self', 'Confirm it is you', {
  operationId: 'confirmAccount',
  description:
    'With your password, a code from your authenticator app or a recovery code, or a passkey (after POST /api/admin/account/confirm/options). ' +
    'For 10 minutes this session may add a passkey, start or remove the authenticator app, make recovery codes and mint keys. Signing in does not count.',
  session: true,
  accountPage: true,
  body: Confirmation,
  responses: ok(Confirmed, 'Confirmed until', {
    400: 'None, or more than one, of password, code and passkey',
    422: 'The password, code or passkey is not right',
    429: 'Too many wrong answers; wait',
  }),
  handler: ({ db, env, caller, address, body, loginThrottle, secondFactorThrottle }) =>
    confirmSession(db, env, { signIn: loginThrottle, secondFactor: secondFactorThrottle }, caller, address, body),
})
