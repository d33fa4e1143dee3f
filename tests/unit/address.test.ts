// addressRules(): the client address behind trusted proxies (right-most untrusted hop) and whether it is the LAN.
import { describe, expect, it } from 'bun:test'
import { addressRules, clientKey } from '../../server/auth/address.ts'
import { readEnv } from '../../server/env.ts'

const DEFAULT_LAN = readEnv({}).lanCidrs
/** The request headers with X-Forwarded-For set, or without it. */
const fwd = (xff: string | null) => new Headers(xff === null ? {} : { 'x-forwarded-for': xff })

describe('clientAddress', () => {
  it('answers the socket peer when no proxy is trusted, ignoring X-Forwarded-For', () => {
    const rules = addressRules([], DEFAULT_LAN)
    expect(rules.clientAddress('8.8.8.8', fwd(null))).toBe('8.8.8.8')
    expect(rules.clientAddress('8.8.8.8', fwd('10.1.2.3'))).toBe('8.8.8.8')
    expect(rules.clientAddress('192.168.1.9', fwd('8.8.8.8'))).toBe('192.168.1.9')
  })

  it('makes the client unknown (never the LAN) when a loopback peer forwards while TRUST_PROXY does not name it, and says so once', () => {
    const warned: string[] = []
    const rules = addressRules([], DEFAULT_LAN, (peer) => warned.push(peer))
    expect(rules.clientAddress('127.0.0.1', fwd(null))).toBe('127.0.0.1')
    expect(rules.untrustedProxySince).toBeNull()
    expect(rules.clientAddress('127.0.0.1', fwd('8.8.8.8'))).toBeNull()
    expect(rules.clientAddress('::1', new Headers({ forwarded: 'for=8.8.8.8' }))).toBeNull()
    expect(rules.clientAddress('::ffff:127.0.0.1', new Headers({ 'x-real-ip': '8.8.8.8' }))).toBeNull()
    expect(rules.clientAddress('127.0.0.1', fwd(''))).toBeNull()
    expect(rules.isLan(rules.clientAddress('127.0.0.1', fwd('192.168.1.5')))).toBe(false)
    expect(warned).toEqual(['127.0.0.1'])
    expect(Date.parse(rules.untrustedProxySince!)).toBeGreaterThan(0)
    // A proxy on this machine that TRUST_PROXY names, but another loopback address forwarding: unknown too.
    const named = addressRules(['127.0.0.1/32'], DEFAULT_LAN)
    expect(named.clientAddress('127.0.0.2', fwd('8.8.8.8'))).toBeNull()
  })

  it('ignores the header from a peer outside TRUST_PROXY', () => {
    const rules = addressRules(['10.0.0.1/32'], ['10.0.0.0/8'])
    expect(rules.clientAddress('8.8.8.8', fwd('10.1.2.3'))).toBe('8.8.8.8')
    expect(rules.clientAddress('10.0.0.2', fwd('10.1.2.3, 10.0.0.1'))).toBe('10.0.0.2')
    expect(rules.clientAddress('8.8.8.8', fwd('garbage'))).toBe('8.8.8.8')
  })

  it('answers the right-most forwarded entry when the peer is a trusted proxy', () => {
    const rules = addressRules(['127.0.0.1/32'], ['10.0.0.0/8'])
    expect(rules.clientAddress('127.0.0.1', fwd('10.1.2.3'))).toBe('10.1.2.3')
    expect(rules.clientAddress('127.0.0.1', fwd('8.8.8.8, 10.1.2.3'))).toBe('10.1.2.3')
    expect(rules.clientAddress('127.0.0.1', fwd('10.1.2.3, 8.8.8.8'))).toBe('8.8.8.8')
    expect(rules.clientAddress('127.0.0.1', fwd('  9.9.9.9  '))).toBe('9.9.9.9')
  })

  it('answers the peer itself when a trusted proxy sends no header, and unknown for an empty one', () => {
    const rules = addressRules(['127.0.0.1/32'], DEFAULT_LAN)
    expect(rules.clientAddress('127.0.0.1', fwd(null))).toBe('127.0.0.1')
    expect(rules.clientAddress('127.0.0.1', fwd(''))).toBeNull()
    expect(rules.clientAddress('127.0.0.1', fwd(' , '))).toBeNull()
    expect(rules.isLan(rules.clientAddress('127.0.0.1', fwd('')))).toBe(false)
  })

  it('skips every trusted hop of a proxy chain, right to left', () => {
    const rules = addressRules(['127.0.0.1/32', '10.0.0.0/24'], ['192.168.0.0/16'])
    expect(rules.clientAddress('127.0.0.1', fwd('203.0.113.7, 10.0.0.5, 10.0.0.6'))).toBe('203.0.113.7')
    expect(rules.clientAddress('127.0.0.1', fwd('192.168.1.1, 203.0.113.7, 10.0.0.5'))).toBe('203.0.113.7')
    expect(rules.clientAddress('127.0.0.1', fwd('203.0.113.7,10.0.0.5,127.0.0.1'))).toBe('203.0.113.7')
    // A proxy outside TRUST_PROXY stops the walk: it is the client as far as we can tell.
    expect(rules.clientAddress('127.0.0.1', fwd('192.168.1.1, 10.0.1.5, 10.0.0.5'))).toBe('10.0.1.5')
  })

  it('gives null for a malformed hop reached in the walk', () => {
    const rules = addressRules(['127.0.0.1/32', '10.0.0.0/24'], DEFAULT_LAN)
    expect(rules.clientAddress('127.0.0.1', fwd('garbage'))).toBeNull()
    expect(rules.clientAddress('127.0.0.1', fwd('10.1.2.3, garbage'))).toBeNull()
    expect(rules.clientAddress('127.0.0.1', fwd('garbage, 10.0.0.5'))).toBeNull()
    expect(rules.clientAddress('127.0.0.1', fwd('10.1.2.3:8080'))).toBeNull()
    expect(rules.clientAddress('127.0.0.1', fwd('999.1.2.3'))).toBeNull()
    expect(rules.isLan(rules.clientAddress('127.0.0.1', fwd('192.168.1.1, garbage')))).toBe(false)
  })

  it('gives null without a peer', () => {
    expect(addressRules(['127.0.0.1/32'], DEFAULT_LAN).clientAddress(null, fwd('10.1.2.3'))).toBeNull()
  })

  it('handles IPv6 peers, proxies and forwarded entries', () => {
    const rules = addressRules(['::1/128', 'fd00::/8'], ['fe80::/10'])
    expect(rules.clientAddress('::1', fwd('2001:db8::1'))).toBe('2001:db8::1')
    expect(rules.clientAddress('::1', fwd('2001:db8::1, fd00::5'))).toBe('2001:db8::1')
    expect(rules.clientAddress('2001:db8::9', fwd('fe80::1'))).toBe('2001:db8::9')
    expect(rules.clientAddress('::1', fwd('fe80::1'))).toBe('fe80::1')
    expect(rules.clientAddress('::1', fwd('2001:db8::g'))).toBeNull()
  })

  it('unmaps ::ffff:-mapped IPv4 in the peer, in trust checks and in forwarded entries', () => {
    const rules = addressRules(['127.0.0.1/32', '10.0.0.0/24'], ['192.168.0.0/16'])
    expect(rules.clientAddress('::ffff:8.8.8.8', fwd(null))).toBe('8.8.8.8')
    expect(rules.clientAddress('::ffff:127.0.0.1', fwd('192.168.1.1'))).toBe('192.168.1.1')
    expect(rules.clientAddress('::FFFF:127.0.0.1', fwd('192.168.1.1'))).toBe('192.168.1.1')
    expect(rules.clientAddress('127.0.0.1', fwd('::ffff:192.168.1.1'))).toBe('192.168.1.1')
    expect(rules.clientAddress('127.0.0.1', fwd('203.0.113.7, ::ffff:10.0.0.5'))).toBe('203.0.113.7')
    expect(rules.clientAddress('::ffff:8.8.8.8', fwd('192.168.1.1'))).toBe('8.8.8.8')
  })

  it('refuses a TRUST_PROXY or LAN_CIDRS entry that is not a CIDR', () => {
    expect(() => addressRules(['not-a-cidr'], [])).toThrow()
    expect(() => addressRules([], ['10.0.0.0/8', 'nope/8'])).toThrow()
  })
})

describe('isLan', () => {
  const rules = addressRules([], DEFAULT_LAN)

  it('uses the documented default LAN_CIDRS', () => {
    expect(DEFAULT_LAN).toEqual(
      expect.arrayContaining(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', 'fc00::/7', 'fe80::/10']),
    )
  })

  it.each([
    ['loopback IPv4', '127.0.0.1'],
    ['loopback IPv4, end of 127/8', '127.255.255.254'],
    ['loopback IPv6', '::1'],
    ['10/8', '10.0.0.1'],
    ['10/8 upper end', '10.255.255.255'],
    ['172.16/12', '172.16.0.1'],
    ['172.16/12 upper end', '172.31.255.255'],
    ['192.168/16', '192.168.1.10'],
    ['169.254/16', '169.254.10.20'],
    ['fc00::/7 (fc)', 'fc00::1'],
    ['fc00::/7 (fd)', 'fd12:3456::1'],
    ['fe80::/10', 'fe80::1'],
    ['fe80::/10 upper end', 'febf::1'],
    ['::ffff:-mapped 192.168/16', '::ffff:192.168.0.1'],
  ])('counts %s (%s) as the LAN', (_, address) => {
    expect(rules.isLan(address)).toBe(true)
  })

  it.each([
    ['a public IPv4', '8.8.8.8'],
    ['just above 172.16/12', '172.32.0.1'],
    ['just below 172.16/12', '172.15.255.255'],
    ['next to 192.168/16', '192.169.0.1'],
    ['next to 10/8', '11.0.0.1'],
    ['a public IPv6', '2001:db8::1'],
    ['just above fe80::/10', 'fec0::1'],
    ['::ffff:-mapped public IPv4', '::ffff:8.8.8.8'],
    ['a malformed address', 'garbage'],
    ['an empty address', ''],
  ])('does not count %s (%s) as the LAN', (_, address) => {
    expect(rules.isLan(address)).toBe(false)
  })

  it('never counts an unknown (null) address as the LAN', () => {
    expect(rules.isLan(null)).toBe(false)
  })

  it('follows LAN_CIDRS when it is set', () => {
    const narrow = addressRules([], ['10.0.0.0/8'])
    expect(narrow.isLan('10.1.2.3')).toBe(true)
    expect(narrow.isLan('127.0.0.1')).toBe(false)
    expect(narrow.isLan('192.168.1.1')).toBe(false)
    expect(addressRules([], ['192.0.2.7']).isLan('192.0.2.7')).toBe(true)
    expect(addressRules([], ['192.0.2.7']).isLan('192.0.2.8')).toBe(false)
  })
})

describe('clientKey', () => {
  it('counts an IPv6 client by its /64 and an IPv4 client by its address', () => {
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64')
    expect(clientKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64')
    expect(clientKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64')
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7')
    expect(clientKey(null)).toBeNull()
  })
})
