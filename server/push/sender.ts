// The background push sender: delivers the push outbox one row at a time through the outbound guard (https, public
// addresses, plain http only inside OUTBOUND_ALLOW, no redirects), encrypted for the device (RFC 8291, aes128gcm) and
// signed with the site's VAPID key by `web-push`. It retries what the push service or the network refused for now
// with growing waits for up to 24 hours; a 404 or 410 means the device is gone, so its subscription is removed. A row
// is marked `sending` before the call, so a restart finds what was under way and sends it again: with the same Topic
// (a push service replaces a copy it still holds) and the same notification tag (a phone shows one notification).
import webpush from 'web-push'
import type { Db } from '../db/client.ts'
import { record, write } from '../db/write.ts'
import type { Env } from '../env.ts'
import { Outbound, OutboundRefused } from '../http/outbound.ts'
import { DueTimer } from '../ops/due-timer.ts'
import { errorText, logEvent } from '../ops/log.ts'
import { nowIso } from '../schemas.ts'
import { dropWaiting, hostOf, vapidKeys } from './subscriptions.ts'
import type { OutboxPush } from './tables.ts'

const MAX_WAIT_MS = 3_600_000
const CALL_MS = 30_000
const TTL_S = 24 * 3600
type Outcome = { state: 'sent' } | { state: 'gone' | 'failed'; reason: string } | { state: 'retry'; reason: string }

/** VAPID's contact: the site when it is https, else the mail sender's address (push services may write there). */
export function vapidSubject(env: Pick<Env, 'publicBaseUrl' | 'mail'>): string {
  if (env.publicBaseUrl.startsWith('https://')) return env.publicBaseUrl
  const from = env.mail?.from ?? ''
  return `mailto:${/<([^>]+)>/.exec(from)?.[1] ?? (from.trim() || 'push@example.invalid')}`
}

export class PushSender {
  private stopped = false
  private readonly timer: DueTimer
  private readonly firstRetryMs: number

  constructor(
    private db: Db,
    private outbound: Outbound,
    private subject: string,
    options: { firstRetryMs?: number } = {},
  ) {
    this.firstRetryMs = options.firstRetryMs ?? 60_000
    this.timer = new DueTimer(
      () => this.drain(),
      (error) => logEvent('push.sender', { ok: false, message: `The push sender paused on an error (again soon): ${errorText(error)}` }),
      10 * 60_000,
    )
  }

  /** Takes up the outbox: a row still `sending` was under way when the service was killed, and goes again. */
  async start(): Promise<void> {
    const resumed = await this.db
      .updateTable('push_outbox')
      .set({ state: 'queued', next_attempt_at: nowIso() })
      .where('state', '=', 'sending')
      .returning('id')
      .execute()
    if (resumed.length)
      logEvent('push.resume', { count: resumed.length, message: `${resumed.length} push(es) under way when the service stopped go again` })
    this.wake()
  }

  /** Looks at the outbox now (after a commit that queued pushes). */
  wake = (): void => this.timer.wake()

  async stop(): Promise<void> {
    this.stopped = true
    await Promise.race([this.timer.stop(), Bun.sleep(5_000)])
  }

  private async drain(): Promise<number> {
    while (!this.stopped) {
      const now = new Date().toISOString()
      const row = await this.db
        .selectFrom('push_outbox')
        .selectAll()
        .where('state', '=', 'queued')
        .where('next_attempt_at', '<=', now)
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(1)
        .executeTakeFirst()
      if (!row) {
        const next = await this.db
          .selectFrom('push_outbox')
          .select('next_attempt_at')
          .where('state', '=', 'queued')
          .orderBy('next_attempt_at')
          .limit(1)
          .executeTakeFirst()
        return next ? Date.parse(next.next_attempt_at) - Date.now() : MAX_WAIT_MS
      }
      await this.deliver(row)
    }
    return MAX_WAIT_MS
  }

  private async deliver(row: OutboxPush): Promise<void> {
    const claimed = await this.db
      .updateTable('push_outbox')
      .set((eb) => ({ state: 'sending', attempts: eb('attempts', '+', 1), last_attempt_at: nowIso() }))
      .where('id', '=', row.id)
      .where('state', '=', 'queued')
      .executeTakeFirst()
    if (!claimed.numUpdatedRows) return
    const outcome = await this.send(row)
    if (outcome.state === 'sent') {
      await this.db.updateTable('push_outbox').set({ state: 'sent', sent_at: nowIso(), error: null }).where('id', '=', row.id).execute()
      logEvent('push.sent', { id: row.id, kind: row.kind, message: `Sent push ${row.id} (${row.kind}) to ${hostOf(row.endpoint)}` })
    } else if (outcome.state === 'gone') await this.gone(row, outcome.reason)
    else if (outcome.state === 'retry' && Date.now() < Date.parse(row.give_up_at)) {
      const wait = Math.min(this.firstRetryMs * 2 ** row.attempts, MAX_WAIT_MS)
      const next = new Date(Math.min(Date.now() + wait, Date.parse(row.give_up_at))).toISOString()
      await this.db
        .updateTable('push_outbox')
        .set({ state: 'queued', next_attempt_at: next, error: outcome.reason })
        .where('id', '=', row.id)
        .execute()
      logEvent('push.retry', { id: row.id, message: `Push ${row.id} (${row.kind}) waits until ${next}: ${outcome.reason}` })
    } else {
      const reason = outcome.state === 'retry' ? `Gave up at ${row.give_up_at}: ${outcome.reason}` : outcome.reason
      await this.db.updateTable('push_outbox').set({ state: 'failed', error: reason }).where('id', '=', row.id).execute()
      logEvent('push.failed', { id: row.id, ok: false, message: `Push ${row.id} (${row.kind}) failed: ${reason}` })
    }
  }

  private async send(row: OutboxPush): Promise<Outcome> {
    const sub = row.subscription_id
      ? await this.db
          .selectFrom('push_subscriptions')
          .select(['endpoint', 'p256dh', 'auth'])
          .where('id', '=', row.subscription_id)
          .executeTakeFirst()
      : undefined
    if (!sub) return { state: 'failed', reason: 'The device no longer takes notifications' }
    const keys = await vapidKeys(this.db)
    let response: Response
    try {
      const details = webpush.generateRequestDetails(
        { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
        JSON.stringify({ title: row.title, body: row.body, url: row.url, tag: `push-${row.id}` }),
        {
          vapidDetails: { subject: this.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
          contentEncoding: 'aes128gcm',
          TTL: TTL_S,
          urgency: row.kind === 'urgent' ? 'high' : 'normal',
          topic: `p${row.id}`,
        },
      )
      const headers = Object.fromEntries(
        Object.entries(details.headers)
          .filter(([name]) => name.toLowerCase() !== 'content-length')
          .map(([name, value]) => [name, String(value)]),
      )
      response = await this.outbound.fetch(sub.endpoint, { method: 'POST', headers, body: new Uint8Array(details.body) }, CALL_MS, {
        httpsOutsideAllow: true,
      })
    } catch (error) {
      const reason = errorText(error).replace(/\s+/g, ' ').slice(0, 300)
      return error instanceof OutboundRefused ? { state: 'failed', reason } : { state: 'retry', reason }
    }
    const text = (await response.text().catch(() => '')).replace(/\s+/g, ' ').slice(0, 200)
    const reason = `${hostOf(sub.endpoint)} answered ${response.status}${text ? `: ${text}` : ''}`
    if (response.ok) return { state: 'sent' }
    if (response.status === 404 || response.status === 410) return { state: 'gone', reason }
    if (response.status === 408 || response.status === 429 || response.status >= 500) return { state: 'retry', reason }
    if (response.status >= 300 && response.status < 400) return { state: 'failed', reason: `${reason} (a redirect, which is not followed)` }
    return { state: 'failed', reason }
  }

  /** The push service says the device is gone: its subscription goes, with what still waited for it. */
  private async gone(row: OutboxPush, reason: string) {
    await write(this.db, async (trx) => {
      await trx.updateTable('push_outbox').set({ state: 'failed', error: reason }).where('id', '=', row.id).execute()
      if (row.subscription_id !== null) {
        await trx.deleteFrom('push_subscriptions').where('id', '=', row.subscription_id).execute()
        await dropWaiting(trx, row.subscription_id, `The device is gone: ${reason}`)
      }
      await record(trx, 'system', 'account.push_gone', `A device no longer takes notifications (${reason})`)
    })
    logEvent('push.gone', { id: row.id, message: `Push ${row.id}: the device is gone and its subscription removed (${reason})` })
  }
}

/** Starts the push sender beside the mail sender: whatever wakes the mail (a commit that queued some) wakes it too. */
export async function startPush(db: Db, env: Env, mail: { alsoWake: (() => void) | null }, options: { firstRetryMs?: number } = {}) {
  const push = new PushSender(db, new Outbound(env.outboundAllow), vapidSubject(env), options)
  mail.alsoWake = push.wake
  await push.start()
  return push
}
