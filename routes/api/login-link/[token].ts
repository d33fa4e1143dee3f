// POST /api/login-link/:token: signs in with a mailed link, once (the page's button posts it: opening the link
// changes nothing, as mail scanners open links); a person with a second factor is asked for it next.
import { useLoginLink } from '#server/account/login-links.ts'
import { SecondFactorAsked, SignedIn } from '#server/account/sign-in.ts'
import { cookieValue } from '#server/auth/credential.ts'
import { SESSION_COOKIE } from '#server/auth/sessions.ts'
import { LinkToken } from '#server/people/one-time-links.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { t } from '#server/schemas.ts'
import { ticketCookie } from '#server/second-factor/ticket-cookie.ts'

export const POST = defineRoute('public', 'Sign in with a mailed link', {
  operationId: 'useLoginLink',
  description:
    'Uses the link once and sets the site_session cookie. The first use of a link mailed to a roster address with no account ' +
    "makes a family account linked to that household (a member of its scouts' units). For a person with a second factor it " +
    'sets no session: it answers `{second_factor: {ticket, methods}}` (the ticket also in the cookie the second-factor page ' +
    'reads); complete the sign-in at POST /login/second-factor.',
  params: LinkToken,
  responses: ok(t.Union([SignedIn, SecondFactorAsked]), 'Signed in, the cookie in Set-Cookie; or the second factor is asked for', {
    403: 'The account is disabled',
    404: 'No such sign-in link',
    410: 'The link has expired, was replaced or already used, or its household is no longer on the roster',
  }),
  async handler({ db, env, params, client, request, set, startSession }) {
    const previous = cookieValue(request.headers.get('cookie'), SESSION_COOKIE)
    const answer = await useLoginLink(db, env, params.token, { ...client, previous })
    if (answer.kind === 'second_factor') {
      set.headers['set-cookie'] = ticketCookie(answer.second_factor.ticket, env.publicBaseUrl)
      return { second_factor: answer.second_factor }
    }
    const start = await startSession(answer.token, answer.person.id)
    return { person: answer.person, start }
  },
})
