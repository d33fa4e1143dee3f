// `format: date-time` and every hand-parsed timestamp: RFC 3339 date-time, strictly, never rolled over.
import { describe, expect, it } from 'bun:test'
import { Type as t } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { instantOf } from '../../server/formats.ts'

const iso = (value: string) => {
  const ms = instantOf(value)
  return ms === null ? null : new Date(ms).toISOString()
}

describe('instantOf', () => {
  it('reads real moments with Z or an offset', () => {
    expect(iso('2026-12-05T18:00:00Z')).toBe('2026-12-05T18:00:00.000Z')
    expect(iso('2026-12-05T18:00:00-06:00')).toBe('2026-12-06T00:00:00.000Z')
    expect(iso('2026-12-05T18:00:00+05:30')).toBe('2026-12-05T12:30:00.000Z')
    expect(iso('2026-12-05T18:00:00+00:00')).toBe('2026-12-05T18:00:00.000Z')
    expect(iso('2026-12-05T18:00:00-00:00')).toBe('2026-12-05T18:00:00.000Z')
    expect(iso('2026-12-05T00:00:00+23:59')).toBe('2026-12-04T00:01:00.000Z')
    expect(iso('2026-12-05T00:00:00-23:59')).toBe('2026-12-05T23:59:00.000Z')
  })

  it('takes lowercase t and z, as RFC 3339 allows', () => {
    expect(iso('2026-12-05t18:00:00z')).toBe('2026-12-05T18:00:00.000Z')
    expect(iso('2026-12-05t18:00:00+01:00')).toBe('2026-12-05T17:00:00.000Z')
  })

  it('keeps milliseconds exactly and drops finer digits', () => {
    expect(iso('2026-12-05T18:00:00.5Z')).toBe('2026-12-05T18:00:00.500Z')
    expect(iso('2026-12-05T18:00:00.57Z')).toBe('2026-12-05T18:00:00.570Z')
    expect(iso('2026-12-05T18:00:00.123456789Z')).toBe('2026-12-05T18:00:00.123Z')
    expect(iso('2026-12-05T18:00:00.999Z')).toBe('2026-12-05T18:00:00.999Z')
  })

  it('accepts a time without seconds (a browser time field) as its leniency', () => {
    expect(iso('2026-12-05T18:00Z')).toBe('2026-12-05T18:00:00.000Z')
    expect(iso('2026-12-05T18:00-06:00')).toBe('2026-12-06T00:00:00.000Z')
  })

  it('knows leap years and month lengths', () => {
    expect(iso('2024-02-29T12:00:00Z')).toBe('2024-02-29T12:00:00.000Z')
    expect(iso('2000-02-29T12:00:00Z')).toBe('2000-02-29T12:00:00.000Z')
    for (const v of [
      '2027-02-30T10:00:00Z',
      '2027-04-31T10:00:00Z',
      '2026-02-29T10:00:00Z',
      '1900-02-29T10:00:00Z',
      '2026-06-31T00:00:00Z',
    ])
      expect(instantOf(v), v).toBeNull()
  })

  it('reads years 0000-0099 as themselves and keeps moments within 0000-9999', () => {
    expect(iso('0000-01-01T00:00:00Z')).toBe('0000-01-01T00:00:00.000Z')
    expect(iso('0099-06-01T00:00:00Z')).toBe('0099-06-01T00:00:00.000Z')
    expect(iso('9999-12-31T23:59:59.999Z')).toBe('9999-12-31T23:59:59.999Z')
    expect(instantOf('0000-01-01T00:00:00+01:00')).toBeNull() // year -1 in UTC
    expect(instantOf('9999-12-31T23:00:00-01:00')).toBeNull() // year 10000 in UTC
  })

  it('refuses times that do not exist instead of rolling them over', () => {
    for (const v of [
      '2026-12-05T24:00:00Z',
      '2026-12-05T23:60:00Z',
      '2026-12-05T23:59:60Z', // a leap second: refused, JavaScript time has none
      '2026-12-05T23:59:61Z',
      '2026-12-05T18:00:00+24:00',
      '2026-12-05T18:00:00+05:60',
      '2026-13-05T18:00:00Z',
      '2026-00-05T18:00:00Z',
      '2026-12-00T18:00:00Z',
    ])
      expect(instantOf(v), v).toBeNull()
  })

  it('refuses what is not RFC 3339 date-time', () => {
    for (const v of [
      '',
      '2026-12-05',
      '2026-12-05T18:00:00', // no offset
      '2026-12-05 18:00:00Z', // a space, not T
      '2026-12-05T18Z',
      '2026-12-5T18:00:00Z',
      '26-12-05T18:00:00Z',
      '+002026-12-05T18:00:00Z',
      '2026-12-05T18:00:00.Z',
      '2026-12-05T18:00:00+0100',
      '2026-12-05T18:00:00+01',
      '2026-12-05T18:00:00 Z',
      '2026-12-05T18:00:00Z ',
      ' 2026-12-05T18:00:00Z',
      '2026-12-05T18:00:00GMT',
      '２０２６-12-05T18:00:00Z', // full-width digits
      'Sat, 05 Dec 2026 18:00:00 GMT',
      '1796493600000',
    ])
      expect(instantOf(v), v).toBeNull()
  })

  it('is what `format: date-time` checks in every schema', () => {
    const schema = t.String({ format: 'date-time' })
    expect(Value.Check(schema, '2026-12-05t18:00:00z')).toBe(true)
    expect(Value.Check(schema, '2027-02-30T10:00:00Z')).toBe(false)
    expect(Value.Check(schema, '2026-12-05T24:00:00Z')).toBe(false)
  })
})
