// POST /logout: ends the current session and clears the cookie.
import { SignedOut, signOut } from '#server/account/sign-in.ts'
import { cookieValue } from '#server/auth/credential.ts'
import { clearedSessionCookies } from '#server/auth/session-cookies.ts'
import { SESSION_COOKIE } from '#server/auth/sessions.ts'
import { isFormPost, seeOther } from '#server/http/forms.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const POST = defineRoute('public', 'Sign out', {
  operationId: 'signOut',
  description: 'Ends this session and clears the cookie.',
  responses: ok(SignedOut, 'Signed out', { 303: 'Signed out (form post): on to the sign-in page, which says so' }),
  async handler({ db, env, request, set }) {
    await signOut(db, cookieValue(request.headers.get('cookie'), SESSION_COOKIE))
    set.headers['set-cookie'] = clearedSessionCookies(env.publicBaseUrl)
    if (isFormPost(request)) return seeOther('/login/?signed-out')
    return { signed_out: true as const }
  },
})
