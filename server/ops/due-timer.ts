// A timer for work that falls due at moments the data decides (the weekly digest, event reminders): it runs `tick`,
// which does what is due and answers how long until the next, then sleeps that long (at least a second, at most
// `maxSleepMs`, so a clock jump or a change it was not told of is caught by then), runs at once when woken, and never
// runs twice at the same time. A failing tick is reported and tried again after `maxSleepMs`.

export class DueTimer {
  private timer: Timer | null = null
  private running: Promise<void> | null = null
  private stopped = false

  constructor(
    private readonly tick: () => Promise<number>,
    private readonly failed: (error: unknown) => void,
    private readonly maxSleepMs = 3_600_000,
  ) {}

  wake(): void {
    if (this.stopped) return
    if (this.running) return void this.running.then(() => this.wake())
    this.running = this.tick()
      .catch((error) => {
        this.failed(error)
        return this.maxSleepMs
      })
      .then((sleep) => {
        this.running = null
        if (this.stopped) return
        if (this.timer) clearTimeout(this.timer)
        this.timer = setTimeout(() => this.wake(), Math.min(Math.max(sleep, 1_000), this.maxSleepMs))
        this.timer.unref?.()
      })
  }

  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    await this.running
  }
}
