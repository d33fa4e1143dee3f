// POST /api/login-link: "Email me a sign-in link" — mails a one-use link valid 20 minutes to an account's address or
// an active household's; the same answer whatever the address.
import { askForLoginLink, LoginLinkRequest } from '#server/account/login-links.ts'
import { clientKey } from '#server/auth/address.ts'
import { tooMany } from '#server/errors.ts'
import { isFormPost, seeOther } from '#server/http/forms.ts'
import { errorText, logEvent } from '#server/ops/log.ts'
import { normaliseEmail } from '#server/people/queries.ts'
import { accepted, defineRoute } from '#server/routes.ts'
import { t } from '#server/schemas.ts'

const ON_ITS_WAY =
  'If this address has an account or is on the roster of a unit, a sign-in link is on its way. It works once, for 20 minutes.'
const NO_MAIL = 'This site cannot send mail yet: sign in with your password, or ask a leader for an invite.'

export const POST = defineRoute('public', 'Ask for a sign-in link by email', {
  operationId: 'askLoginLink',
  description:
    'Answers 202 with the same words for every address, and mails a one-use link to /login/link/{token}, valid 20 minutes, ' +
    "when the address is an active account's or an active roster household's (its first use then makes a family account " +
    'linked to that household). 10 asks an hour from one address, then 429. Past 3 asks an hour for one email the answer ' +
    'stays the same but nothing more is mailed, and the last link sent keeps working: asks by others never lock the owner ' +
    'of the address out.',
  body: LoginLinkRequest,
  forms: true,
  responses: accepted(
    t.Object(
      { detail: t.String({ description: 'What happens now, in words to show' }) },
      { additionalProperties: false, examples: [{ detail: ON_ITS_WAY }] },
    ),
    'Taken; the same answer for every address',
    {
      303: 'Form post: on to the page that says what happens now (or that it was asked too often)',
      422: 'Not an email address',
      429: 'Asked too often from this address',
    },
  ),
  async handler({ db, env, mail, body, address, request, loginLinkLimits }) {
    const wait = loginLinkLimits.client.hit(clientKey(address) ?? 'unknown')
    if (wait) {
      if (isFormPost(request)) return seeOther('/login/email-link/wait/')
      throw tooMany('Asked too often; please try again later', wait)
    }
    // As for "Forgot your password?": past the per-email cap nothing more is sent, but the answer stays the same.
    const mailAgain = loginLinkLimits.email.hit(normaliseEmail(body.email)) === 0
    // The work happens after the answer, so how long it takes cannot tell whether the address is known.
    if (mail && mailAgain)
      setTimeout(
        () =>
          askForLoginLink(db, body, address, env.publicBaseUrl, mail).catch((error) =>
            logEvent('login.link', { ok: false, message: `A sign-in link asked for by email was not made: ${errorText(error)}` }),
          ),
        0,
      )
    if (isFormPost(request)) return seeOther(mail ? '/login/email-link/sent/' : '/login/')
    return { detail: mail ? ON_ITS_WAY : NO_MAIL }
  },
})
