// POST /logout: ends the current session and clears the cookie.
import { signOut } from '#server/account/sign-in.ts'
import { cookieValue } from '#server/auth/credential.ts'
import { clearedSessionCookie, SESSION_COOKIE } from '#server/auth/sessions.ts'
import { isFormPost, seeOther } from '#server/http/forms.ts'
import { defineRoute } from '#server/routes.ts'
import { t } from '#server/schemas.ts'

export const POST = defineRoute({
  auth: 'public',
  summary: 'Sign out: ends this session',
  responses: {
    200: {
      description: 'Signed out; the cookie is cleared',
      schema: t.Object({ signed_out: t.Literal(true) }, { additionalProperties: false, examples: [{ signed_out: true }] }),
    },
    303: 'Signed out (form post): on to the home page',
  },
  async handler({ db, env, request, set }) {
    await signOut(db, cookieValue(request.headers.get('cookie'), SESSION_COOKIE))
    const cookie = clearedSessionCookie(env.publicBaseUrl)
    if (isFormPost(request)) return seeOther('/', { 'set-cookie': cookie })
    set.headers['set-cookie'] = cookie
    return { signed_out: true as const }
  },
})
