// POST /api/login-link: "Email me a sign-in link" — mails a one-use link valid 20 minutes to an account's address or
// an active household's; the same answer whatever the address.
import { askForLoginLink, LoginLinkRequest } from '#server/account/login-links.ts'
import { defineRoute } from '#server/routes.ts'
import { answerLinkAsk, linkAskResponses } from '#server/account/link-asks.ts'

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
  responses: linkAskResponses(ON_ITS_WAY),
  handler: ({ db, env, mail, body, address, request, loginLinkLimits }) =>
    answerLinkAsk({
      limits: loginLinkLimits,
      email: body.email,
      address,
      request,
      mail,
      work: (mail) => askForLoginLink(db, body, address, env.publicBaseUrl, mail),
      log: { kind: 'login.link', failed: 'A sign-in link asked for by email was not made' },
      words: { onItsWay: ON_ITS_WAY, noMail: NO_MAIL },
      pages: { wait: '/login/email-link/wait/', sent: '/login/email-link/sent/', noMail: '/login/' },
    }),
})
