// POST /api/forgot: "Forgot your password?" — mails a one-hour reset link to an account with this address; the
// same answer whether or not one exists.
import { clientKey } from '#server/auth/address.ts'
import { tooMany } from '#server/errors.ts'
import { isFormPost, seeOther } from '#server/http/forms.ts'
import { errorText, logEvent } from '#server/ops/log.ts'
import { normaliseEmail } from '#server/people/queries.ts'
import { askForReset, ForgotRequest } from '#server/people/resets.ts'
import { accepted, defineRoute } from '#server/routes.ts'
import { t } from '#server/schemas.ts'

const ON_ITS_WAY = 'If an account uses this address, a link to choose a new password is on its way. It works for one hour.'
const NO_MAIL = 'This site cannot send mail yet: ask a leader or an admin for a password-reset link.'

export const POST = defineRoute('public', 'Ask for a password-reset link by email', {
  operationId: 'forgotPassword',
  description:
    'Answers 202 with the same words whether or not an account uses the address (nobody learns who has one), and mails an ' +
    'active account a reset link valid one hour. 10 asks an hour from one address, then 429. Past 3 asks an hour for one ' +
    'email the answer stays the same but no further mail is sent, and the last link sent keeps working: asks by others ' +
    'never lock the owner of the address out.',
  body: ForgotRequest,
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
  async handler({ db, env, mail, body, address, request, forgotLimits }) {
    const wait = forgotLimits.client.hit(clientKey(address) ?? 'unknown')
    if (wait) {
      if (isFormPost(request)) return seeOther('/login/forgot/wait/')
      throw tooMany('Asked too often; please try again later', wait)
    }
    // Past the per-email cap the answer is the same and nothing is sent: a 429 there would let anyone lock the owner of
    // an address out, and the last link sent stays open, so their inbox still holds one that works.
    const mailAgain = forgotLimits.email.hit(normaliseEmail(body.email)) === 0
    // The work happens after the answer, so how long it takes cannot tell whether the account exists.
    if (mail && mailAgain)
      setTimeout(
        () =>
          askForReset(db, body, address, env.publicBaseUrl, mail).catch((error) =>
            logEvent('people.forgot', { ok: false, message: `A reset link asked for by email was not made: ${errorText(error)}` }),
          ),
        0,
      )
    if (isFormPost(request)) return seeOther(mail ? '/login/forgot/sent/' : '/login/forgot/')
    return { detail: mail ? ON_ITS_WAY : NO_MAIL }
  },
})
