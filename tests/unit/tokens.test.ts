// Key secrets: `site_` + 43 base62 characters + a 6-character base62 CRC32 checksum, refused before any lookup when malformed.
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

describe('key secrets', () => {
  it('have the documented shape and a checksum that matches the reference', () => {
    for (let i = 0; i < 200; i++) {
      const key = newKeySecret()
      expect(key).toMatch(/^site_[0-9A-Za-z]{49}$/)
      expect(key.slice(-6)).toBe(referenceChecksum(key.slice(5, 48)))
      expect(isWellFormedKey(key)).toBe(true)
    }
  })

  it('refuses a changed character, a wrong length or prefix, and a wrong checksum', () => {
    const key = newKeySecret()
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'a' ? 'b' : 'a') + s.slice(i + 1)
    expect(isWellFormedKey(flip(key, 10))).toBe(false)
    expect(isWellFormedKey(flip(key, key.length - 1))).toBe(false)
    expect(isWellFormedKey(key.slice(0, -1))).toBe(false)
    expect(isWellFormedKey(key + 'a')).toBe(false)
    expect(isWellFormedKey('key_' + key.slice(5))).toBe(false)
    expect(isWellFormedKey(key.replace('site_', 'site-'))).toBe(false)
  })
})

describe('tokens', () => {
  it('are 32 random bytes, URL-safe, never repeated; only their SHA-256 is stored', () => {
    const seen = new Set(Array.from({ length: 1000 }, randomToken))
    expect(seen.size).toBe(1000)
    for (const t of seen) expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    expect(sameSecret('same', 'same')).toBe(true)
    expect(sameSecret('same', 'other')).toBe(false)
  })
})
