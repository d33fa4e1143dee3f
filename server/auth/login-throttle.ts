// Slows repeated failed sign-ins. Keys: the address, the email from that address, and the email alone
// with a short cap, so guessing is slow but an attacker can delay a real user by seconds at most.
const WINDOW_MS = 15 * 60_000

interface Rule {
  free: number
  capSeconds: number
}
const RULES = {
  address: { free: 20, capSeconds: 300 },
  pair: { free: 5, capSeconds: 60 },
  email: { free: 20, capSeconds: 10 },
} satisfies Record<string, Rule>

export class LoginThrottle {
  private failures = new Map<string, { count: number; last: number }>()

  private keys(address: string | null, email: string): [string, Rule][] {
    return [
      [`a:${address}`, RULES.address],
      [`p:${address}:${email}`, RULES.pair],
      [`e:${email}`, RULES.email],
    ]
  }

  /** Seconds the caller must wait before the next attempt (0: go ahead). */
  waitSeconds(address: string | null, email: string, now = Date.now()): number {
    let wait = 0
    for (const [key, rule] of this.keys(address, email)) {
      const entry = this.failures.get(key)
      if (!entry || now - entry.last > WINDOW_MS || entry.count < rule.free) continue
      const delay = Math.min(2 ** (entry.count - rule.free), rule.capSeconds) * 1000
      wait = Math.max(wait, (entry.last + delay - now) / 1000)
    }
    return wait
  }

  failed(address: string | null, email: string, now = Date.now()) {
    for (const [key] of this.keys(address, email)) {
      const entry = this.failures.get(key)
      const fresh = !entry || now - entry.last > WINDOW_MS
      this.failures.set(key, { count: fresh ? 1 : entry.count + 1, last: now })
    }
    if (this.failures.size > 50_000) this.prune(now)
  }

  succeeded(address: string | null, email: string) {
    this.failures.delete(`p:${address}:${email}`)
  }

  private prune(now: number) {
    for (const [key, entry] of this.failures) if (now - entry.last > WINDOW_MS) this.failures.delete(key)
  }
}
