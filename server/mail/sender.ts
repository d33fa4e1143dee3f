// The background sender: delivers queued mail one row at a time, keeps to mail.per_minute, retries what the relay
// or the network refused for now with growing waits for up to 24 hours, and marks a 5xx failed with the relay's
// answer. A row is marked `sending` before it is handed over, so a restart finds what was under way, and `handed_at`
// just before the final dot of DATA, so a restart knows which of those the relay may already have.
import type { Db } from '../db/client.ts'
import { logEvent } from '../ops/log.ts'
import { nowIso } from '../schemas.ts'
import { getSetting } from '../settings/registry.ts'
import { readFailure, type Relay } from './relay.ts'
import type { OutboxMail } from './tables.ts'

export interface SenderOptions {
  /** The wait after the first temporary failure; each further one doubles it, up to an hour. */
  firstRetryMs?: number
}

const MAX_WAIT_MS = 3_600_000
const WINDOW_MS = 60_000
/** How long a stop waits for the relay's answer before it closes the connection (the mail then goes again). */
const STOP_WAIT_MS = 5_000

export class MailSender {
  private timer: Timer | null = null
  private running: Promise<void> | null = null
  private again = false
  private stopped = false
  /** When recent attempts were made, for mail.per_minute (seeded from the database at start). */
  private attempts: number[] = []
  private readonly firstRetryMs: number
  /** Woken with the mail: the push sender, whose rows are queued in the same writes. */
  alsoWake: (() => void) | null = null

  constructor(
    private db: Db,
    private relay: Relay,
    options: SenderOptions = {},
  ) {
    this.firstRetryMs = options.firstRetryMs ?? 60_000
  }

  /**
   * Takes up the queue. A row still `sending` was under way when the service was killed (a stop waits for the relay's
   * answer): it goes again with the same Message-ID. Only a row handed over (the final dot of DATA sent, `handed_at`)
   * may have reached the relay; its next attempt counts it in `maybe_sent`, a possible repeat the log and /healthz show.
   */
  async start(): Promise<void> {
    const since = new Date(Date.now() - WINDOW_MS).toISOString()
    const recent = await this.db.selectFrom('mail_outbox').select('last_attempt_at').where('last_attempt_at', '>', since).execute()
    this.attempts = recent.map((r) => Date.parse(r.last_attempt_at!))
    const resumed = await this.db
      .updateTable('mail_outbox')
      .set({ state: 'queued', next_attempt_at: nowIso() })
      .where('state', '=', 'sending')
      .returning(['id', 'handed_at'])
      .execute()
    const handed = resumed.filter((r) => r.handed_at !== null).map((r) => r.id)
    if (resumed.length)
      logEvent('mail.resume', {
        count: resumed.length,
        handed: handed.length,
        message:
          `${resumed.length} mail(s) under way when the service stopped go again` +
          (handed.length ? `; ${handed.join(', ')} had reached the relay's final dot with no answer and may arrive twice` : ''),
      })
    this.wake()
  }

  /** Looks at the queue now (after a commit that queued mail). */
  wake(): void {
    if (this.stopped) return
    this.alsoWake?.()
    if (this.running) {
      this.again = true
      return
    }
    this.clearTimer()
    this.running = this.drain()
      .catch((error) => {
        // The database was busy or closing: look again in a minute rather than never.
        logEvent('mail.sender', { ok: false, message: `The mail sender paused on an error (again in a minute): ${error}` })
        this.later(WINDOW_MS)
      })
      .finally(() => {
        this.running = null
        if (this.again) {
          this.again = false
          this.wake()
        }
      })
  }

  /**
   * Stops taking rows and waits a little for the mail under way, so it is rarely left half-known; a relay that does
   * not answer by then is cut off, and that mail goes again after the next start.
   */
  async stop(): Promise<void> {
    this.stopped = true
    this.clearTimer()
    await Promise.race([this.running, Bun.sleep(STOP_WAIT_MS)])
    this.relay.close()
  }

  private clearTimer() {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }

  private later(ms: number) {
    this.clearTimer()
    if (!this.stopped) this.timer = setTimeout(() => this.wake(), Math.max(0, ms))
  }

  private async drain(): Promise<void> {
    while (!this.stopped) {
      const now = Date.now()
      this.attempts = this.attempts.filter((at) => at > now - WINDOW_MS)
      const perMinute = await getSetting(this.db, 'mail.per_minute')
      if (this.attempts.length >= perMinute) return this.later(this.attempts[this.attempts.length - perMinute] + WINDOW_MS - now)
      // Mail someone is waiting for goes first; then the oldest.
      const mail = await this.db
        .selectFrom('mail_outbox')
        .selectAll()
        .where('state', '=', 'queued')
        .where('next_attempt_at', '<=', new Date(now).toISOString())
        .orderBy('priority')
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(1)
        .executeTakeFirst()
      if (!mail) {
        const next = await this.db
          .selectFrom('mail_outbox')
          .select('next_attempt_at')
          .where('state', '=', 'queued')
          .orderBy('next_attempt_at')
          .limit(1)
          .executeTakeFirst()
        return next ? this.later(Date.parse(next.next_attempt_at) - now) : undefined
      }
      this.attempts.push(now)
      await this.deliver(mail)
    }
  }

  private async deliver(mail: OutboxMail): Promise<void> {
    // An earlier attempt that reached the final dot and was never answered may have left a copy with the family.
    const maybeSent = mail.maybe_sent + (mail.handed_at !== null ? 1 : 0)
    const claimed = await this.db
      .updateTable('mail_outbox')
      .set((eb) => ({
        state: 'sending',
        attempts: eb('attempts', '+', 1),
        last_attempt_at: nowIso(),
        handed_at: null,
        maybe_sent: maybeSent,
      }))
      .where('id', '=', mail.id)
      .where('state', '=', 'queued')
      .executeTakeFirst()
    if (!claimed.numUpdatedRows) return
    const messageId = `outbox-${mail.id}-${Date.parse(mail.created_at)}`
    try {
      await this.relay.send({
        to: mail.to_address,
        subject: mail.subject,
        text: mail.text_body,
        html: mail.html_body,
        headers: JSON.parse(mail.headers),
        messageId,
        handOver: async () => {
          await this.db.updateTable('mail_outbox').set({ handed_at: nowIso() }).where('id', '=', mail.id).execute()
        },
      })
    } catch (error) {
      return this.failed(mail, readFailure(error))
    }
    await this.finish(mail, { state: 'sent', sent_at: nowIso(), error: null })
    logEvent('mail.sent', { id: mail.id, kind: mail.kind, message: `Sent mail ${mail.id} (${mail.kind})` })
    if (maybeSent)
      logEvent('mail.repeat', {
        id: mail.id,
        kind: mail.kind,
        repeats: maybeSent,
        message: `Mail ${mail.id} (${mail.kind}) may have arrived ${maybeSent + 1} times: ${maybeSent} earlier attempt(s) reached the relay's final dot with no answer; every copy has the same Message-ID (${messageId}@…)`,
      })
  }

  private async failed(mail: OutboxMail, failure: { temporary: boolean; reason: string; answered: boolean }) {
    // A relay that answered does not have the mail; a connection lost after the final dot leaves `handed_at` set.
    if (failure.answered) await this.db.updateTable('mail_outbox').set({ handed_at: null }).where('id', '=', mail.id).execute()
    const now = Date.now()
    const deadline = Date.parse(mail.give_up_at)
    if (failure.temporary && now < deadline) {
      const wait = Math.min(this.firstRetryMs * 2 ** mail.attempts, MAX_WAIT_MS)
      const next = new Date(Math.min(now + wait, deadline)).toISOString()
      await this.db
        .updateTable('mail_outbox')
        .set({ state: 'queued', next_attempt_at: next, error: failure.reason })
        .where('id', '=', mail.id)
        .execute()
      logEvent('mail.retry', {
        id: mail.id,
        kind: mail.kind,
        message: `Mail ${mail.id} (${mail.kind}) waits until ${next}: ${failure.reason}`,
      })
      return
    }
    const reason = failure.temporary ? `Gave up at ${mail.give_up_at}: ${failure.reason}` : failure.reason
    await this.finish(mail, { state: 'failed', error: reason })
    logEvent('mail.failed', { id: mail.id, kind: mail.kind, ok: false, message: `Mail ${mail.id} (${mail.kind}) failed: ${reason}` })
  }

  /** A final state; a mail that held a one-time link keeps no body once it is final. */
  private async finish(mail: OutboxMail, set: { state: 'sent' | 'failed'; sent_at?: string; error: string | null }) {
    await this.db
      .updateTable('mail_outbox')
      .set({ ...set, handed_at: null, ...(mail.sensitive ? { text_body: '', html_body: '' } : {}) })
      .where('id', '=', mail.id)
      .execute()
  }
}
