// POST /login: email and password (JSON or form) → a new site_session cookie, or the second-factor step first.
import { SecondFactorAsked, Credentials, SignedIn, signIn } from '#server/account/sign-in.ts'
import { cookieValue } from '#server/auth/credential.ts'
import { sameSitePath } from '#server/auth/next-path.ts'
import { SESSION_COOKIE } from '#server/auth/sessions.ts'
import { isFormPost, seeOther } from '#server/http/forms.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { t } from '#server/schemas.ts'
import { ticketCookie } from '#server/second-factor/ticket-cookie.ts'

export const POST = defineRoute('public', 'Sign in', {
  operationId: 'signIn',
  description:
    'Email and password, as JSON or a form post; sets the site_session cookie. For a person with a second factor it sets no ' +
    'cookie and answers `{second_factor: {ticket, methods}}`: complete the sign-in at POST /login/second-factor. Repeated ' +
    'failures are slowed down.',
  body: Credentials,
  forms: true,
  responses: ok(t.Union([SignedIn, SecondFactorAsked]), 'Signed in (JSON), the cookie in Set-Cookie; or the second factor is asked for', {
    303: 'Form post: signed in, on to `next` when it is a page of this site, else where their pages start; or on to the second-factor page',
    401: 'Wrong email or password (the same answer whether the email exists or not)',
    403: 'The right password, but the account is disabled (told only to someone who gave the right password)',
    429: 'Too many failed sign-ins from this address or for this email',
  }),
  async handler({ db, env, body, client, request, startSession, loginThrottle }) {
    const previous = cookieValue(request.headers.get('cookie'), SESSION_COOKIE)
    const answer = await signIn(db, env, loginThrottle, body, { ...client, previous })
    if (answer.kind === 'second_factor') {
      const { second_factor } = answer
      if (!isFormPost(request)) return { second_factor }
      const next = body.next ? `?next=${encodeURIComponent(sameSitePath(body.next, ''))}` : ''
      return seeOther(`/login/second-factor/${next}`, { 'set-cookie': ticketCookie(second_factor.ticket, env.publicBaseUrl) })
    }
    const start = await startSession(answer.token, answer.person.id)
    if (isFormPost(request)) return seeOther(sameSitePath(body.next, start))
    return { person: answer.person, start }
  },
})
