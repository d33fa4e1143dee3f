// The mails that carry a one-time link: an invite, a reset link a leader made, and one a person asked for on the
// sign-in page. Each is queued in the write that made the link; its body is emptied once it has gone.
import type { Caller } from '../auth/credential.ts'
import type { Executor } from '../db/database.ts'
import { conflict, tooMany } from '../errors.ts'
import { compose } from '../mail/compose.ts'
import { mailedSince, queueMail } from '../mail/outbox.ts'
import type { MailSender } from '../mail/sender.ts'
import { getSetting } from '../settings/registry.ts'
import { instantWords } from '../instant-words.ts'

const AGAIN_AFTER_MS = 5 * 60_000

/**
 * Before a leader mails a link: 409 while mail is not set up (the link is not made, so it is not lost in a queue that
 * never goes), and 429 when a link was mailed to this address minutes ago: a second tap would kill the first link,
 * and nobody should be able to fill an inbox from the unit's address.
 */
export async function assertMayMailLink(db: Executor, mail: MailSender | null, to: string): Promise<void> {
  if (!mail) throw conflict('Mail is not set up on this site (SMTP_URL): leave "send_email" off and give the link yourself')
  if ((await mailedSince(db, [to], ['invite', 'reset', 'forgot'], new Date(Date.now() - AGAIN_AFTER_MS).toISOString())).size)
    throw tooMany(
      `A link was mailed to ${to} a few minutes ago; ask them to look for it (and in their spam folder) first`,
      AGAIN_AFTER_MS / 1000,
    )
}

/** Who gave the link, as the mail says it: their address, which nobody can dress up as a warning, unlike a name. */
const whoOf = (caller: Caller) => caller.person?.email ?? 'A leader'

const until = async (db: Executor, expiresAt: string) => instantWords(expiresAt, await getSetting(db, 'site.timezone'))

/** What an invite gives, as its mail says it: the roles in words (null for none) and the household it joins. */
export interface InviteGrant {
  roles: string | null
  household: string | null
}

/** What the new account is for, in one sentence: the roles it brings, else the family page it opens. */
function purposeOf(who: string, site: string, { roles, household }: InviteGrant): string[] {
  const invited = `${who} invited you to ${site}${roles ? ` as ${roles}` : ''}.`
  if (household)
    return [invited, `Your account opens the family page of ${household}'s household: its scouts, the calendar and replies to events.`]
  if (roles) return [invited]
  return [invited, 'Your account opens your family page: the calendar, and your household once a leader links it to your account.']
}

export async function queueInviteMail(trx: Executor, caller: Caller, to: string, grant: InviteGrant, url: string, expiresAt: string) {
  const site = await getSetting(trx, 'site.name')
  const letter = await compose(trx, {
    subject: `Your invitation to ${site}`,
    paragraphs: [...purposeOf(whoOf(caller), site, grant), 'Choose a password to make your account.'],
    link: { label: 'Accept the invitation', url },
    after: [`The link works once, until ${await until(trx, expiresAt)}.`],
    why: `You get this mail because a leader of ${site} invited ${to}. If you did not expect it, you can ignore it.`,
  })
  await queueMail(trx, [{ kind: 'invite', to, ...letter, sensitive: true, urgent: true, giveUpAt: expiresAt }])
}

export async function queueResetMail(trx: Executor, to: string, url: string, expiresAt: string, askedBy: Caller | 'self') {
  const site = await getSetting(trx, 'site.name')
  const letter = await compose(trx, {
    subject: `A new password for ${site}`,
    paragraphs: [
      askedBy === 'self'
        ? `Someone, probably you, asked for a new password for ${to} on ${site}.`
        : `${whoOf(askedBy)} made you a link to set a new password on ${site}.`,
    ],
    link: { label: 'Choose a new password', url },
    after: [
      `The link works once, until ${await until(trx, expiresAt)}. Your current password keeps working until you use it.`,
      ...(askedBy === 'self' ? ['If you did not ask for it, ignore this mail: nothing changes.'] : []),
    ],
    why: `You get this mail because a new password was asked for the account ${to} on ${site}.`,
  })
  await queueMail(trx, [
    { kind: askedBy === 'self' ? 'forgot' : 'reset', to, ...letter, sensitive: true, urgent: true, giveUpAt: expiresAt },
  ])
}
