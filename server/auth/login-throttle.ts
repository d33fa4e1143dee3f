// Slows repeated failures: sign-ins (by address, by the email from that address, and by the email alone with a
// short cap, so guessing is slow but an attacker can delay a real user by seconds at most) and wrong break-glass
// tokens (by address), and codes for a second factor (by person, with a long cap). An IPv6 client counts by its /64. Attempts still being checked count like failures, so
// sixty guesses sent at once are not all checked. While a key is slowed down its refusals are logged as one
// action-log entry a minute with their count, not one each.
import type { Executor } from '../db/database.ts'
import { record } from '../db/write.ts'
import type { HistoryKind } from '../db/history-kinds.ts'
import { clientKey } from './address.ts'

/** Failures are forgotten after this long without another (a rule may keep them longer). */
const WINDOW_MS = 15 * 60_000
const TALLY_MS = 60_000

interface Rule {
  /** What the rule counts by: the client, the subject (an email) from that client, or the subject alone. */
  by: 'address' | 'pair' | 'subject'
  free: number
  capSeconds: number
  /** How long failures are remembered after the last one; WINDOW_MS unless said. */
  forgetMs?: number
}

const SIGN_IN: Rule[] = [
  { by: 'address', free: 20, capSeconds: 300 },
  { by: 'pair', free: 5, capSeconds: 60 },
  { by: 'subject', free: 20, capSeconds: 10 },
]
const BREAK_GLASS: Rule[] = [{ by: 'address', free: 5, capSeconds: 300 }]
/**
 * Codes for a second factor, per person, on top of the sign-in rules: a six-digit code needs a longer wait, and
 * failures are remembered a day, so waiting out a quiet quarter of an hour earns no fresh tries.
 */
const SECOND_FACTOR: Rule[] = [{ by: 'subject', free: 10, capSeconds: 900, forgetMs: 24 * 3_600_000 }]

interface Entry {
  failures: number
  inFlight: number
  /** When the last attempt began or failed. */
  last: number
}

/** The refusals of one slowed-down key in the current minute, and the action-log entry that counts them. */
export interface Tally {
  by: Rule['by']
  count: number
  entry: Promise<number> | null
}

/** An attempt that must wait: how long, and the tally of the key that holds it back. */
export interface Slowed {
  seconds: number
  tally: Tally
}

export class Throttle {
  private entries = new Map<string, Entry>()
  private tallies = new Map<string, Tally & { since: number }>()

  constructor(private readonly rules: Rule[]) {}

  /** The keys an attempt counts under; with no subject (a passkey sign-in names nobody yet) only the client's. */
  private keys(address: string | null, subject: string | null): [string, Rule][] {
    const client = clientKey(address)
    return this.rules
      .filter((rule) => subject !== null || rule.by === 'address')
      .map((rule) => [rule.by === 'address' ? `a:${client}` : rule.by === 'pair' ? `p:${client}:${subject}` : `e:${subject}`, rule])
  }

  private entry(key: string, rule: Rule, now: number): Entry {
    let entry = this.entries.get(key)
    if (!entry) this.entries.set(key, (entry = { failures: 0, inFlight: 0, last: now }))
    else if (now - entry.last > (rule.forgetMs ?? WINDOW_MS)) entry.failures = 0
    return entry
  }

  /** Seconds the caller must wait before the next attempt (0: go ahead), and the key that holds it back. */
  private waiting(address: string | null, subject: string | null, now: number): { seconds: number; key: string; rule: Rule } | null {
    let longest: { seconds: number; key: string; rule: Rule } | null = null
    for (const [key, rule] of this.keys(address, subject)) {
      const entry = this.entries.get(key)
      if (!entry) continue
      const failures = now - entry.last > (rule.forgetMs ?? WINDOW_MS) ? 0 : entry.failures
      const attempts = failures + entry.inFlight
      if (attempts < rule.free) continue
      const delay = Math.min(2 ** (attempts - rule.free), rule.capSeconds) * 1000
      const seconds = (entry.last + delay - now) / 1000
      if (seconds > 0 && seconds > (longest?.seconds ?? 0)) longest = { seconds, key, rule }
    }
    return longest
  }

  /**
   * Starts an attempt: null when it may be checked now (it then counts until `finish` is called with its outcome),
   * else how long to wait, with the refusal counted in the holding key's tally for this minute.
   */
  begin(address: string | null, subject: string | null, now = Date.now()): Slowed | null {
    const held = this.waiting(address, subject, now)
    if (held) return { seconds: held.seconds, tally: this.tally(held.key, held.rule.by, now) }
    for (const [key, rule] of this.keys(address, subject)) {
      const entry = this.entry(key, rule, now)
      entry.inFlight++
      entry.last = now
    }
    if (this.entries.size > 50_000) this.prune(now)
    return null
  }

  /**
   * Ends an attempt: `failed` counts against every key, `passed` clears the failures of this subject from this client,
   * and `pending` (a right password still waiting for its second factor) does neither.
   */
  finish(address: string | null, subject: string | null, outcome: 'passed' | 'failed' | 'pending', now = Date.now()): void {
    for (const [key, rule] of this.keys(address, subject)) {
      const entry = this.entry(key, rule, now)
      entry.inFlight = Math.max(0, entry.inFlight - 1)
      if (outcome === 'failed') {
        entry.failures++
        entry.last = now
      } else if (outcome === 'passed' && rule.by === 'pair') entry.failures = 0
    }
  }

  private tally(key: string, by: Rule['by'], now: number): Tally {
    let tally = this.tallies.get(key)
    if (!tally || now - tally.since >= TALLY_MS) {
      if (this.tallies.size > 10_000) this.tallies.clear()
      this.tallies.set(key, (tally = { by, count: 0, entry: null, since: now }))
    }
    tally.count++
    return tally
  }

  private prune(now: number) {
    const longest = Math.max(WINDOW_MS, ...this.rules.map((r) => r.forgetMs ?? 0))
    for (const [key, entry] of this.entries) if (!entry.inFlight && now - entry.last > longest) this.entries.delete(key)
  }
}

export const signInThrottle = () => new Throttle(SIGN_IN)
export const breakGlassThrottle = () => new Throttle(BREAK_GLASS)
export const secondFactorThrottle = () => new Throttle(SECOND_FACTOR)

/**
 * Logs a refusal of a slowed-down key: the minute's first writes the entry, the others bring its count up to date,
 * so a flood of guesses leaves one entry a minute per key instead of one each.
 */
export async function recordSlowedDown(db: Executor, kind: HistoryKind, tally: Tally, summary: (count: number) => string) {
  if (!tally.entry) {
    tally.entry = record(db, 'anonymous', kind, summary(tally.count))
    await tally.entry.catch((error) => {
      tally.entry = null // the next refusal tries again
      throw error
    })
    return
  }
  const id = await tally.entry
  await db
    .updateTable('action_log')
    .set({ summary: summary(tally.count) })
    .where('id', '=', id)
    .execute()
}
