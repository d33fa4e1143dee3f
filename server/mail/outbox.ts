// The outbox: mail is queued as rows in the same transaction as the change that sends it (one row per address, so
// nobody sees another's address), and what the health check reports about the queue.
import type { Executor } from '../db/database.ts'
import { type PushNote, queuePushesOf } from '../push/queue.ts'
import { nowIso } from '../schemas.ts'
import type { MailKind } from './tables.ts'

export interface NewMail {
  kind: MailKind
  to: string
  subject: string
  text: string
  html: string
  headers?: Record<string, string>
  /** The body holds a one-time link: it is emptied once the mail has gone or failed for good. */
  sensitive?: boolean
  /** Someone is waiting for it (a link they or a leader asked for): it goes before other mail. */
  urgent?: boolean
  /** When to stop trying (a link's expiry); a day by default. */
  giveUpAt?: string
  /** The leader's message this mail delivers. */
  messageId?: number
  /** Also a notification to each device of the account with this address, as its owner chose for the kind. */
  push?: PushNote
}

const GIVE_UP_MS = 24 * 3_600_000
/** How far back /healthz counts the mail that may have arrived twice. */
export const REPEATS_DAYS = 30

/** Queues mails for the sender; call it inside the write that causes them, then wake the sender after the commit. */
export async function queueMail(trx: Executor, all: NewMail[]): Promise<void> {
  const mails = await queuePushesOf(trx, all)
  if (!mails.length) return
  const now = nowIso()
  await trx
    .insertInto('mail_outbox')
    .values(
      mails.map((m) => ({
        created_at: now,
        kind: m.kind,
        to_address: m.to,
        subject: m.subject,
        text_body: m.text,
        html_body: m.html,
        headers: JSON.stringify(m.headers ?? {}),
        sensitive: m.sensitive ? 1 : 0,
        priority: m.urgent ? 0 : 1,
        give_up_at: m.giveUpAt ?? new Date(Date.parse(now) + GIVE_UP_MS).toISOString(),
        next_attempt_at: now,
        message_id: m.messageId ?? null,
      })),
    )
    .execute()
}

/** Which of these addresses were sent a mail of these kinds since `since` (a double tap, or the same alert again). */
export async function mailedSince(db: Executor, to: string[], kinds: MailKind[], since: string): Promise<Set<string>> {
  if (!to.length) return new Set()
  const rows = await db
    .selectFrom('mail_outbox')
    .select('to_address')
    .distinct()
    .where('to_address', 'in', to)
    .where('kind', 'in', kinds)
    .where('created_at', '>', since)
    .execute()
  return new Set(rows.map((r) => r.to_address))
}

/**
 * The queue for the health check: waiting mail (and how much of it waits after a failed attempt), when a mail
 * last went out and an attempt last failed, and the copies sent in the last 30 days that may have been repeats.
 */
export async function outboxStatus(db: Executor) {
  // Each read walks an index over what waits, or takes one end of an index: its cost does not grow with the mail
  // sent over the years (the public health check runs this).
  const waiting = await db
    .selectFrom('mail_outbox')
    .select((eb) => [
      eb.fn.countAll<number>().as('queued'),
      // A mail being tried again after a failure ('sending', its error kept) is still waiting on the relay.
      eb.fn.count<number>('id').filterWhere('error', 'is not', null).as('retrying'),
    ])
    .where('state', 'in', ['queued', 'sending'])
    .executeTakeFirstOrThrow()
  const sent = await db
    .selectFrom('mail_outbox')
    .select((eb) => eb.fn.max('sent_at').as('at'))
    .executeTakeFirst()
  const failed = await db
    .selectFrom('mail_outbox')
    .select((eb) => eb.fn.max('last_attempt_at').as('at'))
    .where('error', 'is not', null)
    .executeTakeFirst()
  const repeats = await db
    .selectFrom('mail_outbox')
    .select((eb) => eb.fn.sum<number>('maybe_sent').as('n'))
    .where('maybe_sent', '>', 0)
    .where('sent_at', '>', new Date(Date.now() - REPEATS_DAYS * 86_400_000).toISOString())
    .executeTakeFirst()
  return {
    queued: Number(waiting.queued),
    retrying: Number(waiting.retrying),
    last_sent_at: sent?.at ?? null,
    last_failed_at: failed?.at ?? null,
    possible_repeats: Number(repeats?.n ?? 0),
  }
}
