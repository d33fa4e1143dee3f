// POST /api/admin/account/passkeys/options: what the browser needs to make a passkey for your account.
import { defineRoute, ok } from '#server/routes.ts'
import { passkeyOptions } from '#server/second-factor/factors.ts'
import { t } from '#server/schemas.ts'

export const POST = defineRoute('account:self', 'Start adding a passkey', {
  operationId: 'startPasskeyRegistration',
  description:
    'Needs a confirmation in the last 10 minutes (POST /api/admin/account/confirm). Options for navigator.credentials.create() (startRegistration of @simplewebauthn/browser); the challenge lasts 5 minutes.',
  session: true,
  accountPage: true,
  responses: ok(t.Unknown({ examples: [{ challenge: 'dGhpcy…', rp: { name: 'Pack 123', id: 'pack123.example.org' } }] }), 'The options', {
    403: { description: 'Your session has not confirmed it is you in the last 10 minutes', codes: ['confirm_required'] },
  }),
  handler: ({ db, env, caller }) => passkeyOptions(db, env, caller),
})
