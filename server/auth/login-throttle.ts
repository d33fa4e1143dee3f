// Slows repeated failed sign-ins. Keys: the address, the email from that address, and the email alone
// with a short cap, so guessing is slow but an attacker can delay a real user by seconds at most.
// Attempts still being checked count like failures, so sixty guesses sent at once are not all checked.
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

interface Entry {
  failures: number
  inFlight: number
  /** When the last attempt began or failed. */
  last: number
}

export class LoginThrottle {
  private entries = new Map<string, Entry>()

  private keys(address: string | null, email: string): [string, Rule][] {
    return [
      [`a:${address}`, RULES.address],
      [`p:${address}:${email}`, RULES.pair],
      [`e:${email}`, RULES.email],
    ]
  }

  private entry(key: string, now: number): Entry {
    let entry = this.entries.get(key)
    if (!entry) this.entries.set(key, (entry = { failures: 0, inFlight: 0, last: now }))
    else if (now - entry.last > WINDOW_MS) entry.failures = 0
    return entry
  }

  /** Seconds the caller must wait before the next attempt (0: go ahead). */
  waitSeconds(address: string | null, email: string, now = Date.now()): number {
    let wait = 0
    for (const [key, rule] of this.keys(address, email)) {
      const entry = this.entries.get(key)
      if (!entry) continue
      const failures = now - entry.last > WINDOW_MS ? 0 : entry.failures
      const attempts = failures + entry.inFlight
      if (attempts < rule.free) continue
      const delay = Math.min(2 ** (attempts - rule.free), rule.capSeconds) * 1000
      wait = Math.max(wait, (entry.last + delay - now) / 1000)
    }
    return wait
  }

  /**
   * Starts an attempt: returns the seconds to wait when it must not be checked now, else 0, and the
   * attempt counts until `finish` is called with its outcome.
   */
  begin(address: string | null, email: string, now = Date.now()): number {
    const wait = this.waitSeconds(address, email, now)
    if (wait > 0) return wait
    for (const [key] of this.keys(address, email)) {
      const entry = this.entry(key, now)
      entry.inFlight++
      entry.last = now
    }
    if (this.entries.size > 50_000) this.prune(now)
    return 0
  }

  finish(address: string | null, email: string, ok: boolean, now = Date.now()): void {
    for (const [key] of this.keys(address, email)) {
      const entry = this.entry(key, now)
      entry.inFlight = Math.max(0, entry.inFlight - 1)
      if (ok) continue
      entry.failures++
      entry.last = now
    }
    if (ok) this.entries.get(`p:${address}:${email}`)!.failures = 0
  }

  private prune(now: number) {
    for (const [key, entry] of this.entries) if (!entry.inFlight && now - entry.last > WINDOW_MS) this.entries.delete(key)
  }
}
