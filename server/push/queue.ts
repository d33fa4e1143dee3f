// Pushes ride along with mail: a mail queued with `push` also queues one push per subscribed device of the account
// with that address (in the same transaction, so a rolled-back change sends neither), as the person chose for that
// kind. A person who chose push alone is not mailed while they have a device; with none, the mail still goes.
import type { Executor } from '../db/database.ts'
import { nowIso } from '../schemas.ts'
import { channelsOf } from './subscriptions.ts'
import type { PushKind } from './tables.ts'

/** What a push shows: a title, a line or two, and the page a tap opens. */
export interface PushNote {
  kind: PushKind
  title: string
  body: string
  url: string
}

const GIVE_UP_MS = 24 * 3_600_000
/** A push service takes at most 4 KB encrypted: the text is cut well before. */
const BODY_MAX = 300

/** Plain words from Markdown for a notification's line: no markup, one space between words. */
export const plainLine = (markdown: string) => {
  const text = markdown
    .replace(/[*_`#>[\]]/g, '')
    .replace(/\(https?:[^)]*\)/g, '')
    .replace(/\s+/g, ' ')
    .trim()
  return text.length > BODY_MAX ? `${text.slice(0, BODY_MAX - 1)}…` : text
}

/**
 * Queues the pushes of these mails and answers the mails still to queue (those to people who chose push alone and
 * have a device are left out). Mails without `push` pass through.
 */
export async function queuePushesOf<M extends { to: string; push?: PushNote; messageId?: number }>(
  trx: Executor,
  mails: M[],
): Promise<M[]> {
  const pushing = mails.filter((m) => m.push)
  if (!pushing.length) return mails
  const people = await trx
    .selectFrom('people')
    .select(['id', 'email'])
    .where(
      'email',
      'in',
      pushing.map((m) => m.to.trim().toLowerCase()),
    )
    .where('disabled_at', 'is', null)
    .execute()
  if (!people.length) return mails
  const subs = await trx
    .selectFrom('push_subscriptions')
    .select(['id', 'person_id', 'endpoint'])
    .where(
      'person_id',
      'in',
      people.map((p) => p.id),
    )
    .orderBy('id')
    .execute()
  const byEmail = new Map(people.map((p) => [p.email.toLowerCase(), p.id]))
  const skip = new Set<M>()
  const now = nowIso()
  const giveUp = new Date(Date.parse(now) + GIVE_UP_MS).toISOString()
  const rows = []
  for (const kind of new Set(pushing.map((m) => m.push!.kind))) {
    const ofKind = pushing.filter((m) => m.push!.kind === kind)
    const channels = await channelsOf(
      trx,
      people.map((p) => p.id),
      kind,
    )
    for (const mail of ofKind) {
      const person = byEmail.get(mail.to.trim().toLowerCase())
      if (person === undefined) continue
      const channel = channels.get(person) ?? 'both'
      const devices = subs.filter((s) => s.person_id === person)
      if (channel === 'mail' || !devices.length) continue
      if (channel === 'push') skip.add(mail)
      const { title, body, url } = mail.push!
      for (const d of devices)
        rows.push({
          created_at: now,
          kind,
          person_id: person,
          subscription_id: d.id,
          endpoint: d.endpoint,
          title: title.slice(0, 200),
          body: plainLine(body),
          url,
          next_attempt_at: now,
          give_up_at: giveUp,
          message_id: mail.messageId ?? null,
        })
    }
  }
  if (rows.length) await trx.insertInto('push_outbox').values(rows).execute()
  return mails.filter((m) => !skip.has(m))
}

/** Which of these addresses' accounts were pushed a notification of `kind` since `since` (a leader who chose push alone). */
export async function pushedSince(db: Executor, emails: string[], kind: PushKind, since: string): Promise<Set<string>> {
  if (!emails.length) return new Set()
  const rows = await db
    .selectFrom('push_outbox')
    .innerJoin('people', 'people.id', 'push_outbox.person_id')
    .select('people.email')
    .distinct()
    .where('people.email', 'in', emails)
    .where('push_outbox.kind', '=', kind)
    .where('push_outbox.created_at', '>', since)
    .execute()
  return new Set(rows.map((r) => r.email))
}
