// Random secrets, their stored SHA-256 form, and the checksummed key format `site_<body><crc>`.
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const KEY_BODY_LENGTH = 43 // 32 random bytes in base62
const KEY_CHECK_LENGTH = 6 // CRC32 in base62
export const KEY_PREFIX = 'site_'
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${KEY_BODY_LENGTH + KEY_CHECK_LENGTH}}$`)

function base62(value: bigint, width: number): string {
  let out = ''
  while (value > 0n) {
    out = BASE62[Number(value % 62n)] + out
    value /= 62n
  }
  return out.padStart(width, '0')
}

const randomBigInt = (bytes: number) => BigInt('0x' + Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('hex'))

/** The 6-character base62 CRC32 of a key body (plain numbers: this runs on every keyed request). */
function checksum(body: string): string {
  let value = Bun.hash.crc32(body)
  let out = ''
  for (let i = 0; i < KEY_CHECK_LENGTH; i++) {
    out = BASE62[value % 62] + out
    value = Math.floor(value / 62)
  }
  return out
}

/** A URL-safe secret of 32 random bytes, for sessions, invites, resets and setup links. */
export const randomToken = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')

export const sha256 = (secret: string): string => Bun.SHA256.hash(secret, 'hex')

export function newKeySecret(): string {
  const body = base62(randomBigInt(32), KEY_BODY_LENGTH)
  return KEY_PREFIX + body + checksum(body)
}

/** True when the key has the shape of one (prefix, length, alphabet). */
export const hasKeyShape = (key: string) => KEY_PATTERN.test(key)

/** True when the key has the right shape and its checksum holds; no database needed. */
export function isWellFormedKey(key: string): boolean {
  if (!hasKeyShape(key)) return false
  const body = key.slice(KEY_PREFIX.length, KEY_PREFIX.length + KEY_BODY_LENGTH)
  return key.endsWith(checksum(body))
}

/** Constant-time comparison of two strings. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && crypto.timingSafeEqual(x, y)
}
