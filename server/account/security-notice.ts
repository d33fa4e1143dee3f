// A short mail to a person when a factor of their sign-in or an API key of theirs is added or removed: what changed,
// and what to do if it was not them. Queued in the write that makes the change, only when mail is set up.
import type { Executor } from '../db/database.ts'
import { compose } from '../mail/compose.ts'
import { queueMail } from '../mail/outbox.ts'
import type { MailSender } from '../mail/sender.ts'
import { getSetting } from '../settings/registry.ts'

/** Queues the notice that `change` (a sentence: "A passkey “iPhone” was added") happened to `to`'s account. */
export async function queueSecurityNotice(trx: Executor, mail: MailSender | null, to: string, change: string): Promise<void> {
  if (!mail) return
  const site = await getSetting(trx, 'site.name')
  const letter = await compose(trx, {
    subject: `Security notice for your ${site} account`,
    paragraphs: [`${change} on your account ${to} at ${site}.`, 'If this was you, there is nothing to do.'],
    after: [
      'If it was not you, someone may have your session or password: sign in, change your password on your account page ' +
        '(that signs every other device out), remove any passkey, authenticator app or API key you do not know, and tell ' +
        'an owner of the site.',
    ],
    why: `You get this mail because the sign-in or the API keys of ${to} on ${site} changed.`,
  })
  await queueMail(trx, [{ kind: 'security', to, ...letter, urgent: true }])
}
