// `format: date` as the catalog (and every other schema) reads it: RFC 3339 full-date, years 0000-9999, Gregorian leap years.
import { describe, expect, it } from 'bun:test'
import { isCalendarDate } from '../../server/formats.ts'
import { validateSeason } from '../../server/catalog/validate.ts'

describe('isCalendarDate', () => {
  it('accepts the years Date would read as 1900-1999', () => {
    for (const date of ['0000-01-01', '0001-01-01', '0099-12-31', '0100-01-01', '0000-02-29']) expect(isCalendarDate(date), date).toBe(true)
  })

  it('follows the Gregorian leap-year rule', () => {
    expect(isCalendarDate('1900-02-29')).toBe(false) // divisible by 100, not by 400
    expect(isCalendarDate('0100-02-29')).toBe(false)
    expect(isCalendarDate('2000-02-29')).toBe(true) // divisible by 400
    expect(isCalendarDate('2024-02-29')).toBe(true)
    expect(isCalendarDate('2026-02-29')).toBe(false)
    expect(isCalendarDate('0004-02-29')).toBe(true)
  })

  it('knows the length of every month', () => {
    for (const date of ['2026-01-31', '2026-04-30', '2026-12-31', '9999-12-31']) expect(isCalendarDate(date), date).toBe(true)
    for (const date of ['2026-04-31', '2026-06-31', '2026-09-31', '2026-11-31', '2026-02-30'])
      expect(isCalendarDate(date), date).toBe(false)
  })

  it('refuses what is not YYYY-MM-DD', () => {
    for (const date of [
      '2026-00-10',
      '2026-13-01',
      '2026-01-00',
      '2026-1-05',
      '26-01-05',
      '+02026-01-05',
      '2026-01-05T00:00:00Z',
      ' 2026-01-05',
      '２０２６-01-05',
      '2026-01-0５',
    ])
      expect(isCalendarDate(date), date).toBe(false)
  })
})

describe('released_at', () => {
  it('accepts 0099-12-31 in a season file', () => {
    const text = JSON.stringify({
      season: 'c1s1',
      game_mode: 'br',
      sprites: [{ base_name: 'A', row_name: 'R', variants: [{ variant: 'Default', status: 'released', released_at: '0099-12-31' }] }],
    })
    expect(validateSeason('c1s1.json', text).problems).toEqual([])
  })
})
