// Mail about a sign-up that a family did not cause themselves: a place came free and they moved up from the waitlist,
// the permission slip changed and needs signing again, or the event was cancelled. Queued in the transaction of the change, one mail per address.
import type { Executor } from '../db/database.ts'
import { compose } from '../mail/compose.ts'
import { queueMail } from '../mail/outbox.ts'
import { familyAddresses } from '../messages/audience.ts'
import { getSetting } from '../settings/registry.ts'
import { dayWords } from '../words.ts'
import { replyUrl } from './reply-token.ts'

/** Where mail links go, when mail is set up; null sends nothing. */
export type SignupMail = { publicBaseUrl: string } | null

/** The sign-up mail a request may queue: only with a mail sender (woken after the write commits). */
export const signupMail = (mail: unknown, env: { publicBaseUrl: string }): SignupMail =>
  mail ? { publicBaseUrl: env.publicBaseUrl } : null

const NEWS = {
  moved_up: (title: string, day: string) => ({
    subject: `A place came free: you are coming to ${title}`,
    paragraph: `A place came free for “${title}” on ${day}, and your household was next on the waitlist: your scouts are confirmed.`,
  }),
  moved_up_some: (title: string, day: string) => ({
    subject: `A place came free: more of your scouts are coming to ${title}`,
    paragraph: `A place came free for “${title}” on ${day}, and your household's scouts were next on the waitlist: more of them are confirmed, and the others still wait for a place.`,
  }),
  sign_again: (title: string, day: string) => ({
    subject: `Please sign the permission slip again: ${title}`,
    paragraph: `The leaders changed the permission slip for “${title}” on ${day} after you signed it. Please read it and sign again so your scouts can come.`,
  }),
  // The event is gone, so there is no sign-up to see: the mail has no link, and a tap on the notification opens the
  // family page.
  cancelled: (title: string, day: string) => ({
    subject: `Cancelled: ${title}`,
    paragraph: `The leaders cancelled “${title}” on ${day}, so your household's sign-up is cancelled too. Any trip fee charged for it has been taken back.`,
  }),
}

export async function queueSignupMail(
  trx: Executor,
  mail: SignupMail,
  kind: keyof typeof NEWS,
  event: { uid: string; title: string; date: string },
  households: number[],
): Promise<number> {
  if (!mail || !households.length) return 0
  const site = await getSetting(trx, 'site.name')
  const news = NEWS[kind](event.title, dayWords(event.date, { year: true }))
  const mails = []
  for (const f of await familyAddresses(trx, households)) {
    // The household's own reply link: a family without an account sees and changes its sign-up there too.
    const url = kind === 'cancelled' ? `${mail.publicBaseUrl}/family/` : await replyUrl(trx, mail.publicBaseUrl, f.id, event.uid)
    const letter = await compose(trx, {
      subject: news.subject,
      paragraphs: [news.paragraph],
      ...(kind === 'cancelled' ? {} : { link: { label: 'See your sign-up', url } }),
      why: `You get this mail because your household signed up for an event on ${site}.`,
    })
    const push = { kind: 'signup' as const, title: news.subject, body: news.paragraph, url }
    mails.push(...f.emails.map((to) => ({ kind: 'signup' as const, to, ...letter, push })))
  }
  await queueMail(trx, mails)
  return mails.length
}
