// POST /api/admin/account/passkeys/options: what the browser needs to make a passkey for your account.
import { defineRoute, ok } from '#server/routes.ts'
import { passkeyOptions } from '#server/second-factor/factors.ts'
import { t } from '#server/schemas.ts'

export const POST = defineRoute('account:self', 'Start adding a passkey', {
  operationId: 'startPasskeyRegistration',
  description: 'Options for navigator.credentials.create() (startRegistration of @simplewebauthn/browser); the challenge lasts 5 minutes.',
  session: true,
  accountPage: true,
  responses: ok(t.Unknown({ examples: [{ challenge: 'dGhpcy…', rp: { name: 'Pack 123', id: 'pack123.example.org' } }] }), 'The options'),
  handler: ({ db, env, caller }) => passkeyOptions(db, env, caller),
})
