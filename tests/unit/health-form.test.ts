// A health form's last day: 12 months from the date on it, the day before the same date a year on.
import { describe, expect, it } from 'bun:test'
import { healthFormOn, healthFormUntil } from '../../server/roster/health-form.ts'

describe('healthFormUntil', () => {
  it('ends the day before the same date a year on, across month and year ends and leap days', () => {
    expect(healthFormUntil('2026-03-14')).toBe('2027-03-13')
    expect(healthFormUntil('2026-01-01')).toBe('2026-12-31')
    expect(healthFormUntil('2026-12-31')).toBe('2027-12-30')
    expect(healthFormUntil('2028-02-29')).toBe('2029-02-28')
    expect(healthFormUntil('2027-03-01')).toBe('2028-02-29')
  })
  it('is current through its last day and not after; no date is not current', () => {
    expect(healthFormOn('2026-03-14', '2027-03-13').current).toBe(true)
    expect(healthFormOn('2026-03-14', '2027-03-14').current).toBe(false)
    expect(healthFormOn(null, '2027-03-14')).toEqual({ form_date: null, expires_on: null, current: false })
  })
})
