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
