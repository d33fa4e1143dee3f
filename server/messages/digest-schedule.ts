// When the weekly digest goes: a timer that wakes at the next digest hour (and at least hourly, and at once when a
// digest setting changes), and queues the digest of the day whose hour has passed, if it has not gone yet and the
// hour is less than CATCH_UP_MS ago (a service that was down through it still sends it soon after; a week-old one not).
import type { Db } from '../db/client.ts'
import type { MailSender } from '../mail/sender.ts'
import { DueTimer } from '../ops/due-timer.ts'
import { errorText, logEvent } from '../ops/log.ts'
import { onSettingChange } from '../setting-changes/changes.ts'
import { CATCH_UP_MS, digestClock, nextDigestAt, previousDigestAt, sendDigest } from './digest.ts'

export class DigestSchedule {
  private readonly timer = new DueTimer(
    () => this.tick(),
    (error) =>
      logEvent('mail.digest', {
        ok: false,
        message: `The weekly digest could not be queued (again within the hour): ${errorText(error)}`,
      }),
  )
  private unsubscribe = () => {}

  constructor(
    private readonly db: Db,
    private readonly mail: MailSender,
    private readonly baseUrl: string,
  ) {}

  start(): void {
    this.unsubscribe = onSettingChange('digest schedule', (db) => {
      if (db === this.db) this.timer.wake()
    })
    this.timer.wake()
  }

  /** Sends a digest that is due; answers how long to sleep. */
  private async tick(): Promise<number> {
    const { day, hour, timeZone } = await digestClock(this.db)
    const now = Date.now()
    const previous = previousDigestAt(now, day, hour, timeZone)
    if (previous !== null && now - previous < CATCH_UP_MS) {
      const queued = await sendDigest(this.db, previous, this.baseUrl)
      if (queued) {
        logEvent('mail.digest', { message: `The weekly digest is on its way to ${queued} addresses` })
        this.mail.wake()
      }
    }
    const next = nextDigestAt(now, day, hour, timeZone)
    return next === null ? Infinity : next - now
  }

  async stop(): Promise<void> {
    this.unsubscribe()
    await this.timer.stop()
  }
}
