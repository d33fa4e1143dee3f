// Keeps the public pages in step with the calendar store that leaders also change from their phones:
// about once a minute one small request asks the store for its change tag, and only a changed tag
// asks for a site rebuild (whose preparation reads the whole collection into the local copy).
import type { Db } from '../db/client.ts'
import { refreshCopy } from './service.ts'
import type { CalendarStore } from './calendar-store.ts'

export type PollOutcome = 'changed' | 'unchanged' | 'failed'

export class CalendarWatch {
  /** The change tag of the copy the current pages were built from; null before the first good read. */
  private builtTag: string | null = null
  private failing = false
  private timer: Timer | null = null
  private polling: Promise<PollOutcome> | null = null
  /** When the store was last asked (a poll or the read before a build) and whether it answered: the health check's source. */
  lastContact: { at: string; ok: boolean } | null = null

  constructor(
    private db: Db,
    private store: CalendarStore,
    /** Asks for a site rebuild. */
    private onChange: (reason: string) => void,
    private log: (line: string) => void = console.log,
  ) {}

  /** Before each site build: refreshes the local copy the pages are built from and remembers its tag. */
  async refreshForBuild(): Promise<void> {
    try {
      this.builtTag = (await refreshCopy(this.db, this.store)).tag
      this.contacted(true)
    } catch (error) {
      this.contacted(false)
      throw error
    }
  }

  private contacted(ok: boolean): void {
    this.lastContact = { at: new Date().toISOString(), ok }
  }

  /** One poll; store failures are logged when they begin and end, and the last good copy stays up meanwhile. */
  poll(): Promise<PollOutcome> {
    this.polling ??= this.pollOnce().finally(() => (this.polling = null))
    return this.polling
  }

  private async pollOnce(): Promise<PollOutcome> {
    let tag: string
    try {
      tag = await this.store.currentTag()
      this.contacted(true)
    } catch (error) {
      this.contacted(false)
      if (!this.failing)
        this.log(`Calendar store unreachable; the pages keep the last copy: ${error instanceof Error ? error.message : error}`)
      this.failing = true
      return 'failed'
    }
    if (this.failing) this.log('Calendar store reachable again')
    this.failing = false
    if (tag === this.builtTag) return 'unchanged'
    this.onChange('calendar changed')
    return 'changed'
  }

  start(seconds: number): void {
    this.stop()
    this.timer = setInterval(() => void this.poll(), seconds * 1000)
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }
}
