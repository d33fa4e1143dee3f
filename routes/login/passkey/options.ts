// POST /login/passkey/options: a challenge for signing in with a passkey alone.
import { defineRoute, ok } from '#server/routes.ts'
import { PasskeySignInOptions, passkeySignInOptions } from '#server/account/sign-in.ts'
import { tooMany } from '#server/errors.ts'
import { clientKey } from '#server/auth/address.ts'

export const POST = defineRoute('public', 'Start a sign-in with a passkey', {
  operationId: 'startPasskeySignIn',
  description:
    'Options for navigator.credentials.get() (startAuthentication of @simplewebauthn/browser) and a ticket; send both back to ' +
    'POST /login/passkey within 5 minutes. At most 20 a minute per address.',
  responses: ok(PasskeySignInOptions, 'The challenge and its ticket', { 429: 'Too many from this address: wait a minute' }),
  async handler({ db, env, address, passkeyLimiter }) {
    const wait = passkeyLimiter.hit(clientKey(address) ?? 'unknown')
    if (wait) throw tooMany('Too many passkey sign-ins started from here; wait a minute', wait)
    return passkeySignInOptions(db, env)
  },
})
