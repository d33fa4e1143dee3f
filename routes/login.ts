// POST /login: email and password (JSON or form) → a new site_session cookie.
import { Credentials, SignedIn, signIn } from '#server/account/sign-in.ts'
import { cookieValue } from '#server/auth/credential.ts'
import { sameSitePath } from '#server/auth/next-path.ts'
import { SESSION_COOKIE } from '#server/auth/sessions.ts'
import { isFormPost, seeOther } from '#server/http/forms.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const POST = defineRoute('public', 'Sign in', {
  description: 'Email and password, as JSON or a form post; sets the site_session cookie. Repeated failures are slowed down.',
  body: Credentials,
  forms: true,
  responses: ok(SignedIn, 'Signed in (JSON); the cookie is in Set-Cookie', {
    303: 'Signed in (form post): on to `next` when it is a page of this site, else where their pages start',
    401: 'Wrong email or password (the same answer whether the email exists or not)',
    429: 'Too many failed sign-ins from this address or for this email',
  }),
  async handler({ db, body, client, request, startSession, loginThrottle }) {
    const previous = cookieValue(request.headers.get('cookie'), SESSION_COOKIE)
    const { token, person } = await signIn(db, loginThrottle, body, { ...client, previous })
    const start = await startSession(token, person.id)
    if (isFormPost(request)) return seeOther(sameSitePath(body.next, start))
    return { person, start }
  },
})
