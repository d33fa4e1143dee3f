// The slow-downs as a clock sees them: sign-ins forget failures after a quiet quarter of an hour; codes for a second
// factor remember them a day, so waiting out the longest pause earns no fresh tries.
import { describe, expect, it } from 'bun:test'
import { secondFactorThrottle, signInThrottle } from '../../server/auth/login-throttle.ts'

const MINUTE = 60_000

/** `n` failed attempts, one at a time, from the same address for the same person, each when it may go. */
function fail(throttle: ReturnType<typeof signInThrottle>, n: number, start: number): number {
  let now = start
  for (let i = 0; i < n; i++) {
    const held = throttle.begin('203.0.113.7', 'robin@example.org', now)
    if (held) {
      now += held.seconds * 1000 + 1
      expect(throttle.begin('203.0.113.7', 'robin@example.org', now)).toBeNull()
    }
    throttle.finish('203.0.113.7', 'robin@example.org', 'failed', now)
  }
  return now
}

describe('Throttle', () => {
  it('forgets sign-in failures after 15 quiet minutes', () => {
    const throttle = signInThrottle()
    const last = fail(throttle, 8, 0)
    expect(throttle.begin('203.0.113.7', 'robin@example.org', last + 1000)).not.toBeNull()
    expect(throttle.begin('203.0.113.7', 'robin@example.org', last + 15 * MINUTE + 1)).toBeNull()
  })

  it('remembers second-factor code failures a day: after the longest pause one code is checked, then the wait is long again', () => {
    const throttle = secondFactorThrottle()
    const last = fail(throttle, 20, 0)
    const after = last + 15 * MINUTE + 1
    // Any address: the count is the person's.
    expect(throttle.begin('198.51.100.9', 'robin@example.org', after)).toBeNull()
    throttle.finish('198.51.100.9', 'robin@example.org', 'failed', after)
    expect(throttle.begin('198.51.100.9', 'robin@example.org', after + 1000)!.seconds).toBeGreaterThan(14 * 60)
    expect(throttle.begin('198.51.100.9', 'robin@example.org', after + 24 * 60 * MINUTE + 1)).toBeNull()
  })
})
