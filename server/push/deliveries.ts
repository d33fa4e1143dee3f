// A message's pushes as deliveries beside its mails (`channel: push`): to whom, on which push service, and how it went.
import type { Executor } from '../db/database.ts'
import { hostOf } from './subscriptions.ts'

/** The notification of an urgent message: its subject, the start of its words, the page it opens. */
export const urgentPush = (m: { subject: string; body: string }, url: string) => ({
  kind: 'urgent' as const,
  title: m.subject,
  body: m.body,
  url,
})

/** One delivery per device the message was pushed to. */
export async function pushDeliveriesOf(db: Executor, messageId: number) {
  const rows = await db
    .selectFrom('push_outbox')
    .innerJoin('people', 'people.id', 'push_outbox.person_id')
    .select(['people.email', 'push_outbox.endpoint', 'push_outbox.state', 'push_outbox.error', 'push_outbox.sent_at'])
    .where('push_outbox.message_id', '=', messageId)
    .orderBy('people.email')
    .orderBy('push_outbox.id')
    .execute()
  return rows.map((p) => ({
    email: p.email,
    who: `${p.email} (a device on ${hostOf(p.endpoint)})`,
    state: p.state === 'sending' ? ('queued' as const) : p.state,
    channel: 'push' as const,
    ...(p.state === 'failed' || (p.state === 'queued' && p.error) ? { reason: p.error ?? 'not delivered' } : {}),
    ...(p.sent_at ? { at: p.sent_at } : {}),
  }))
}

/** Push deliveries by message and state, to count with the mails. */
export const pushStatesOf = (db: Executor, messageIds: number[]) =>
  db
    .selectFrom('push_outbox')
    .select(['message_id', 'state', (eb) => eb.fn.countAll<number>().as('n')])
    .where('message_id', 'in', messageIds)
    .groupBy(['message_id', 'state'])
    .execute()
