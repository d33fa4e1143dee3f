// POST /api/forgot: "Forgot your password?" — mails a one-hour reset link to an account with this address; the
// same answer whether or not one exists.
import { askForReset, ForgotRequest } from '#server/people/resets.ts'
import { defineRoute } from '#server/routes.ts'
import { answerLinkAsk, linkAskResponses } from '#server/account/link-asks.ts'

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
  responses: linkAskResponses(ON_ITS_WAY),
  handler: ({ db, env, mail, body, address, request, forgotLimits }) =>
    answerLinkAsk({
      limits: forgotLimits,
      email: body.email,
      address,
      request,
      mail,
      work: (mail) => askForReset(db, body, address, env.publicBaseUrl, mail),
      log: { kind: 'people.forgot', failed: 'A reset link asked for by email was not made' },
      words: { onItsWay: ON_ITS_WAY, noMail: NO_MAIL },
      pages: { wait: '/login/forgot/wait/', sent: '/login/forgot/sent/', noMail: '/login/forgot/' },
    }),
})
