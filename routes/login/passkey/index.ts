// POST /login/passkey: the ticket and a passkey's answer → the site_session cookie, with no password.
import { cookieValue } from '#server/auth/credential.ts'
import { SESSION_COOKIE } from '#server/auth/sessions.ts'
import { SignedIn } from '#server/account/sign-in.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { PasskeySignIn, signInWithPasskey } from '#server/account/sign-in.ts'

export const POST = defineRoute('public', 'Sign in with a passkey', {
  operationId: 'signInWithPasskey',
  description: 'The ticket from POST /login/passkey/options and what startAuthentication answered. The passkey must check who holds it.',
  body: PasskeySignIn,
  responses: ok(SignedIn, 'Signed in; the cookie is in Set-Cookie', {
    401: 'The passkey is not one of this site’s, or it did not verify',
    410: 'The ticket is used, expired, or out of tries: start again',
    429: 'Too many failed sign-ins from this address',
  }),
  async handler({ db, env, body, client, request, startSession, loginThrottle }) {
    const previous = cookieValue(request.headers.get('cookie'), SESSION_COOKIE)
    const { token, person } = await signInWithPasskey(db, env, loginThrottle, body, { ...client, previous })
    return { person, start: await startSession(token, person.id) }
  },
})
