// "Email me a link": what "Forgot your password?" and "Email me a sign-in link" share. The same 202 words for every
// address, a per-client limit (429), a per-email cap past which nothing more is mailed but the answer stays the same
// (so asks by others never lock the owner of the address out), and the work after the answer, so how long it takes
// cannot tell whether the address is known.
import { clientKey } from '../auth/address.ts'
import { tooMany } from '../errors.ts'
import { isFormPost, seeOther } from '../http/forms.ts'
import { errorText, logEvent } from '../ops/log.ts'
import { normaliseEmail } from '../people/queries.ts'
import type { RateLimiter } from '../rate-limit.ts'
import { accepted } from '../routes.ts'
import { t } from '../schemas.ts'

/** The answers of a link ask, with the words it gives when the link is on its way. */
export const linkAskResponses = (onItsWay: string) =>
  accepted(
    t.Object(
      { detail: t.String({ description: 'What happens now, in words to show' }) },
      { additionalProperties: false, examples: [{ detail: onItsWay }] },
    ),
    'Taken; the same answer for every address',
    {
      303: 'Form post: on to the page that says what happens now (or that it was asked too often)',
      422: 'Not an email address',
      429: 'Asked too often from this address',
    },
  )

export interface LinkAsk<Mail> {
  limits: { email: RateLimiter; client: RateLimiter }
  email: string
  address: string | null
  request: Request
  /** The mail sender; null while mail is not set up. */
  mail: Mail | null
  /** Makes and mails the link; run after the answer. */
  work: (mail: Mail) => Promise<unknown>
  log: { kind: string; failed: string }
  words: { onItsWay: string; noMail: string }
  /** Where a form post goes: asked too often, taken, and taken without mail set up. */
  pages: { wait: string; sent: string; noMail: string }
}

export function answerLinkAsk<Mail>(ask: LinkAsk<Mail>) {
  const mail = ask.mail
  const wait = ask.limits.client.hit(clientKey(ask.address) ?? 'unknown')
  if (wait) {
    if (isFormPost(ask.request)) return seeOther(ask.pages.wait)
    throw tooMany('Asked too often; please try again later', wait)
  }
  const mailAgain = ask.limits.email.hit(normaliseEmail(ask.email)) === 0
  if (mail && mailAgain)
    setTimeout(
      () => ask.work(mail).catch((error) => logEvent(ask.log.kind, { ok: false, message: `${ask.log.failed}: ${errorText(error)}` })),
      0,
    )
  if (isFormPost(ask.request)) return seeOther(mail ? ask.pages.sent : ask.pages.noMail)
  return { detail: mail ? ask.words.onItsWay : ask.words.noMail }
}
