// A sliding-window limit per key (an address): at most `max` hits in `windowMs`.
export class RateLimiter {
  private hits = new Map<string, number[]>()

  constructor(
    private max: number,
    private windowMs: number,
  ) {}

  /** Records a hit; returns 0 when allowed, else the seconds until the next hit is. */
  hit(key: string, now = Date.now()): number {
    const recent = (this.hits.get(key) ?? []).filter((t) => now - t < this.windowMs)
    if (recent.length >= this.max) {
      this.hits.set(key, recent)
      return Math.ceil((recent[0] + this.windowMs - now) / 1000)
    }
    recent.push(now)
    this.hits.set(key, recent)
    if (this.hits.size > 50_000) for (const [k, v] of this.hits) if (now - v[v.length - 1] >= this.windowMs) this.hits.delete(k)
    return 0
  }
}

/**
 * A fixed window per key (an address), the windows of every key starting together: a hit is a Map lookup, and the
 * whole map is dropped when the next window starts, so it holds at most the keys of one window.
 */
export class WindowLimiter {
  private counts = new Map<string, number>()
  private windowEnd = 0

  constructor(
    readonly windowMs: number,
    /** Keys one window may hold; past that the window starts over (a flood of addresses gets no more than it could). */
    private maxKeys = 100_000,
  ) {}

  /** Counts a hit for `key` against `max`: the hits it has left in this window, or -1 when it is over the limit. */
  hit(key: string, max: number, now = Date.now()): number {
    if (now >= this.windowEnd || this.counts.size >= this.maxKeys) {
      this.counts.clear()
      this.windowEnd = (Math.floor(now / this.windowMs) + 1) * this.windowMs
    }
    const count = (this.counts.get(key) ?? 0) + 1
    if (count > max) return -1
    this.counts.set(key, count)
    return max - count
  }

  /** Whole seconds until the current window ends (at least 1). */
  resetSeconds(now = Date.now()): number {
    return Math.max(1, Math.ceil((this.windowEnd - now) / 1000))
  }

  /** Keys held now (for tests). */
  get size(): number {
    return this.counts.size
  }
}
