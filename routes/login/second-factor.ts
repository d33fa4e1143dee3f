// POST /login/second-factor: the ticket from POST /login with a code (authenticator app or recovery code) or a
// passkey's answer → the site_session cookie.
import { cookieValue } from '#server/auth/credential.ts'
import { sameSitePath } from '#server/auth/next-path.ts'
import { SESSION_COOKIE } from '#server/auth/sessions.ts'
import { SignedIn } from '#server/account/sign-in.ts'
import { badRequest } from '#server/errors.ts'
import { isFormPost, seeOther } from '#server/http/forms.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { completeSignIn, SecondFactorAnswer } from '#server/account/sign-in.ts'
import { clearedTicketCookie, TICKET_COOKIE } from '#server/second-factor/ticket-cookie.ts'

export const POST = defineRoute('public', 'Complete a sign-in with its second factor', {
  operationId: 'signInSecondFactor',
  description:
    'The ticket POST /login answered (a form post sends it in a cookie) with `code` (six digits from the authenticator app, or ' +
    'a recovery code) or `passkey` (what startAuthentication answered). The ticket lives 5 minutes and dies after 5 wrong ' +
    'answers; wrong answers count as failed sign-ins.',
  body: SecondFactorAnswer,
  forms: true,
  responses: ok(SignedIn, 'Signed in; the cookie is in Set-Cookie', {
    303: 'Signed in (form post): on to `next` when it is a page of this site, else where their pages start',
    400: 'Neither or both of code and passkey, or no ticket',
    401: 'The code or passkey did not work; the ticket has tries left',
    410: 'The ticket is used, expired, or out of tries: sign in again',
    429: 'Too many failed sign-ins from this address or for this person',
  }),
  async handler({ db, env, body, client, request, set, startSession, loginThrottle, secondFactorThrottle }) {
    const ticket = body.ticket ?? cookieValue(request.headers.get('cookie'), TICKET_COOKIE)
    if (!ticket) throw badRequest('No sign-in ticket: sign in with your password first')
    const previous = cookieValue(request.headers.get('cookie'), SESSION_COOKIE)
    const { token, person } = await completeSignIn(
      db,
      env,
      { signIn: loginThrottle, secondFactor: secondFactorThrottle },
      { ticket, code: body.code, passkey: body.passkey },
      { ...client, previous },
    )
    const start = await startSession(token, person.id)
    set.headers['set-cookie'] = [...(set.headers['set-cookie'] as string[]), clearedTicketCookie(env.publicBaseUrl)]
    if (isFormPost(request)) return seeOther(sameSitePath(body.next, start))
    return { person, start }
  },
})
