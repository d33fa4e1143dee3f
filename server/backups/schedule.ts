// When backups run: daily at `backups.hour` in the site's time zone, plus one soon after start when a daily run was missed.
import { addDays, utcToZoned, zonedToUtc } from '../calendar/zone.ts'
import type { Db } from '../db/client.ts'
import { errorText, logEvent } from '../ops/log.ts'
import { getSetting } from '../settings/registry.ts'
import { onSettingChange } from '../setting-changes/changes.ts'
import { type BackupReason, newestDaily, stemOf } from './files.ts'
import { type BackupPlace, runBackup } from './run.ts'

/** How soon after start a catch-up backup runs: after the start's own work, before anyone waits for it. */
export const CATCH_UP_DELAY_MS = 5_000
/** The timer wakes at least this often and looks again: survives clock jumps and setTimeout's 24.8-day limit. */
export const MAX_SLEEP_MS = 3_600_000

export interface Planned {
  at: number
  reason: BackupReason
}

const hourText = (hour: number) => `${String(hour).padStart(2, '0')}:00`

/** The first `hour`:00 in `timeZone` strictly after `now` (on a day the clock skips that hour, whatever instant zonedToUtc gives). */
export function nextDailyAt(now: number, hour: number, timeZone: string): number {
  const today = utcToZoned(now, timeZone).date
  for (let day = 0; ; day++) {
    const at = zonedToUtc(addDays(today, day), hourText(hour), timeZone)
    if (at > now) return at
  }
}

/** The last `hour`:00 in `timeZone` at or before `now`. */
export function previousDailyAt(now: number, hour: number, timeZone: string): number {
  const today = utcToZoned(now, timeZone).date
  for (let day = 0; ; day--) {
    const at = zonedToUtc(addDays(today, day), hourText(hour), timeZone)
    if (at <= now) return at
  }
}

/**
 * The first run after start: a catch-up soon when there is no daily backup or the newest is older than the
 * last scheduled hour (the service was down then), otherwise the next scheduled hour.
 */
export function planAtStart(now: number, hour: number, timeZone: string, newest: number | null): Planned {
  if (newest === null || newest < previousDailyAt(now, hour, timeZone)) return { at: now + CATCH_UP_DELAY_MS, reason: 'catch-up' }
  return { at: nextDailyAt(now, hour, timeZone), reason: 'daily' }
}

/** The daily schedule of one service: start() after the database is open, stop() before it closes. */
export class BackupSchedule {
  private timer: ReturnType<typeof setTimeout> | null = null
  private running: Promise<unknown> | null = null
  private stopped = false
  private unsubscribe = () => {}
  /** The next run, for logs and tests. */
  planned: Planned | null = null

  constructor(
    private readonly db: Db,
    private readonly place: BackupPlace,
    private readonly now: () => number = Date.now,
    /** Told of a failed run (mails the owners when mail is set up). */
    private readonly onFailure: (error: string) => Promise<unknown> = async () => {},
  ) {}

  private async daily(): Promise<Planned> {
    const [hour, timeZone] = await Promise.all([getSetting(this.db, 'backups.hour'), getSetting(this.db, 'site.timezone')])
    return { at: nextDailyAt(this.now(), hour, timeZone), reason: 'daily' }
  }

  async start(): Promise<Planned> {
    const [hour, timeZone] = await Promise.all([getSetting(this.db, 'backups.hour'), getSetting(this.db, 'site.timezone')])
    this.planned = planAtStart(this.now(), hour, timeZone, newestDaily(this.place.dir, stemOf(this.place.databasePath)))
    // A changed hour or time zone moves the next daily run at once (a pending catch-up stays).
    this.unsubscribe = onSettingChange('backup schedule', (db) => {
      if (db === this.db && this.planned?.reason === 'daily' && !this.running)
        void this.daily().then(
          (next) => {
            if (this.running || this.stopped) return
            this.planned = next
            this.arm()
          },
          (error) => logEvent('backup.schedule', { ok: false, message: `Backup schedule: ${errorText(error)}` }),
        )
    })
    this.arm()
    return this.planned
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer)
    if (this.stopped || !this.planned) return
    this.timer = setTimeout(() => void this.wake(), Math.min(Math.max(0, this.planned.at - this.now()), MAX_SLEEP_MS))
    this.timer.unref?.() // never what keeps the process alive
  }

  private async wake(): Promise<void> {
    if (this.stopped || !this.planned) return
    if (this.now() < this.planned.at) return this.arm()
    const run = runBackup(this.db, this.place, this.planned.reason, this.now())
    this.running = run
    const outcome = await run
    this.running = null
    if (!outcome.ok)
      await this.onFailure(outcome.error).catch((error) =>
        logEvent('backup.alert', { ok: false, message: `Could not tell the owners of the failed backup: ${errorText(error)}` }),
      )
    if (this.stopped) return
    try {
      this.planned = await this.daily()
    } catch (error) {
      logEvent('backup.schedule', { ok: false, message: `Backup schedule: ${errorText(error)}; looking again in an hour` })
      this.planned = { at: this.now() + MAX_SLEEP_MS, reason: 'daily' }
    }
    this.arm()
  }

  /** Stops the timer and waits for a backup under way, so the database can be closed. */
  async stop(): Promise<void> {
    this.stopped = true
    this.unsubscribe()
    if (this.timer) clearTimeout(this.timer)
    await this.running
  }
}
