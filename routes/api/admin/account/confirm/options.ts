// POST /api/admin/account/confirm/options: a passkey challenge for confirming it is you.
import { confirmOptions } from '#server/account/confirm.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { t } from '#server/schemas.ts'

export const POST = defineRoute('account:self', 'Start confirming it is you with a passkey', {
  operationId: 'startAccountConfirm',
  description:
    'Options for navigator.credentials.get() (startAuthentication of @simplewebauthn/browser) with your passkeys; the challenge lasts 5 minutes.',
  session: true,
  accountPage: true,
  responses: ok(t.Unknown({ examples: [{ challenge: 'dGhpcy…', rpId: 'pack123.example.org', allowCredentials: [] }] }), 'The options'),
  handler: ({ db, env, caller }) => confirmOptions(db, env, caller),
})
