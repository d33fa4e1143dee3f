// Secrets: key format `site_` + 43 base62 characters + a 6-character base62 CRC32 checksum, random tokens, SHA-256.
import { describe, expect, it } from 'bun:test'
import { isWellFormedKey, newKeySecret, randomToken, sameSecret, sha256 } from '../../server/auth/tokens.ts'

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** The checksum as the format defines it, computed the slow obvious way. */
function referenceChecksum(body: string): string {
  let v = BigInt(Bun.hash.crc32(body))
  let out = ''
  while (v > 0n) {
    out = BASE62[Number(v % 62n)] + out
    v /= 62n
  }
  return out.padStart(6, '0')
}

/** The key with character i replaced by another base62 character. */
const change = (key: string, i: number) => key.slice(0, i) + BASE62[(BASE62.indexOf(key[i]) + 1) % 62] + key.slice(i + 1)

describe('newKeySecret', () => {
  it('answers site_ and 49 base62 characters whose last 6 are the CRC32 of the first 43', () => {
    for (let i = 0; i < 200; i++) {
      const key = newKeySecret()
      expect(key).toMatch(/^site_[0-9A-Za-z]{49}$/)
      expect(key).toHaveLength(54)
      expect(key.slice(-6)).toBe(referenceChecksum(key.slice(5, 48)))
    }
  })

  it('never repeats a key', () => {
    const keys = new Set(Array.from({ length: 1000 }, newKeySecret))
    expect(keys.size).toBe(1000)
  })
})

describe('isWellFormedKey', () => {
  it('is true for fresh keys', () => {
    for (let i = 0; i < 200; i++) expect(isWellFormedKey(newKeySecret())).toBe(true)
  })

  it('is false when any one character of the body or the checksum is changed', () => {
    const key = newKeySecret()
    for (let i = 5; i < key.length; i++) expect(isWellFormedKey(change(key, i)), `position ${i}`).toBe(false)
  })

  it('is false for a wrong length', () => {
    const key = newKeySecret()
    expect(isWellFormedKey(key.slice(0, -1))).toBe(false)
    expect(isWellFormedKey(key + 'a')).toBe(false)
    expect(isWellFormedKey('site_')).toBe(false)
    expect(isWellFormedKey('')).toBe(false)
    // A shorter body with its own valid checksum is still the wrong shape.
    const body = key.slice(5, 47)
    expect(isWellFormedKey('site_' + body + referenceChecksum(body))).toBe(false)
  })

  it('is false for a wrong prefix', () => {
    const key = newKeySecret()
    expect(isWellFormedKey('key_' + key.slice(5))).toBe(false)
    expect(isWellFormedKey('site-' + key.slice(5))).toBe(false)
    expect(isWellFormedKey('SITE_' + key.slice(5))).toBe(false)
    expect(isWellFormedKey(key.slice(5))).toBe(false)
    expect(isWellFormedKey(' ' + key)).toBe(false)
  })

  it('is false for characters outside base62', () => {
    const key = newKeySecret()
    expect(isWellFormedKey(key.slice(0, 10) + '-' + key.slice(11))).toBe(false)
    expect(isWellFormedKey(key.slice(0, 10) + '_' + key.slice(11))).toBe(false)
  })
})

describe('randomToken', () => {
  it('answers 43 URL-safe characters (32 random bytes) and never repeats', () => {
    const seen = new Set(Array.from({ length: 1000 }, randomToken))
    expect(seen.size).toBe(1000)
    for (const t of seen) {
      expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(Buffer.from(t, 'base64url')).toHaveLength(32)
    }
  })
})

describe('sha256', () => {
  it('answers the lowercase hex SHA-256', () => {
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    expect(sha256('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
    const key = newKeySecret()
    expect(sha256(key)).toMatch(/^[0-9a-f]{64}$/)
    expect(sha256(key)).toBe(sha256(key))
    expect(sha256(key)).not.toBe(sha256(change(key, 10)))
  })
})

describe('sameSecret', () => {
  it('is true only for equal strings', () => {
    expect(sameSecret('same', 'same')).toBe(true)
    expect(sameSecret('same', 'other')).toBe(false)
    expect(sameSecret('same', 'samE')).toBe(false)
    expect(sameSecret('same', 'same ')).toBe(false)
    expect(sameSecret('', 'x')).toBe(false)
  })
})
