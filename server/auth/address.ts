// Client address rules: who the caller really is (TRUST_PROXY) and whether that is the LAN (LAN_CIDRS).
import { BlockList, isIP } from 'node:net'
import ipaddr from 'ipaddr.js'

/** The request headers the address rules read. */
export interface ForwardingHeaders {
  get(name: string): string | null
}

export interface AddressRules {
  clientAddress(peer: string | null, headers: ForwardingHeaders): string | null
  isLan(address: string | null): boolean
  /**
   * When a loopback peer first sent forwarding headers without being a trusted proxy (a reverse proxy on this
   * machine while TRUST_PROXY does not name it), else null.
   */
  readonly untrustedProxySince: string | null
}

function blockList(cidrs: string[]): BlockList {
  const list = new BlockList()
  for (const cidr of cidrs) {
    const [net, bits] = cidr.split('/')
    const family = isIP(net)
    if (!family) throw new Error(`Not a CIDR: ${cidr}`)
    const prefix = bits === undefined ? (family === 4 ? 32 : 128) : Number(bits)
    list.addSubnet(net, prefix, family === 4 ? 'ipv4' : 'ipv6')
  }
  return list
}

const unmapped = (address: string) => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '')

function contains(list: BlockList, address: string | null): boolean {
  if (!address) return false
  const plain = unmapped(address.trim())
  const family = isIP(plain)
  return family !== 0 && list.check(plain, family === 4 ? 'ipv4' : 'ipv6')
}

/** Answers by address, remembered: the same few clients ask on every request, and BlockList.check costs more. */
function remembered(check: (address: string | null) => boolean): (address: string | null) => boolean {
  const answers = new Map<string, boolean>()
  return (address) => {
    if (address === null) return check(null)
    let answer = answers.get(address)
    if (answer === undefined) {
      if (answers.size >= 4096) answers.clear()
      answers.set(address, (answer = check(address)))
    }
    return answer
  }
}

const LOOPBACK = blockList(['127.0.0.0/8', '::1/128'])

/**
 * The client address and the LAN rule. `onUntrustedProxy` is called once, the first time a loopback peer sends
 * X-Forwarded-For, Forwarded or X-Real-IP while TRUST_PROXY does not name it.
 */
export function addressRules(trustProxy: string[], lanCidrs: string[], onUntrustedProxy: (peer: string) => void = () => {}): AddressRules {
  const proxies = blockList(trustProxy)
  const lanList = blockList(lanCidrs)
  const lan = remembered((address) => contains(lanList, address))
  let untrustedProxySince: string | null = null
  return {
    /**
     * The socket peer, unless it is a trusted proxy: then the right-most forwarded entry that is not one. A
     * loopback peer that forwards without being trusted is a reverse proxy nobody named in TRUST_PROXY: behind it,
     * every client would look like this machine (the LAN), so the client is unknown instead.
     */
    clientAddress(peer, headers) {
      if (!peer) return null
      const forwardedFor = headers.get('x-forwarded-for')
      if (!contains(proxies, peer)) {
        const forwards = forwardedFor !== null || headers.get('forwarded') !== null || headers.get('x-real-ip') !== null
        if (!forwards || !contains(LOOPBACK, peer)) return unmapped(peer)
        if (untrustedProxySince === null) {
          untrustedProxySince = new Date().toISOString()
          onUntrustedProxy(unmapped(peer))
        }
        return null
      }
      if (forwardedFor === null) return unmapped(peer)
      const hops = forwardedFor
        .split(',')
        .map((h) => h.trim())
        .filter(Boolean)
      // An empty header names no client: unknown, never the proxy itself.
      if (!hops.length) return null
      for (let i = hops.length - 1; i >= 0; i--) {
        // A malformed hop makes the client unknown, which never counts as the LAN.
        if (!isIP(unmapped(hops[i]))) return null
        if (!contains(proxies, hops[i])) return unmapped(hops[i])
      }
      return unmapped(hops[0])
    },
    isLan: lan,
    get untrustedProxySince() {
      return untrustedProxySince
    },
  }
}

/**
 * How slow-downs and rate limits count a client: an IPv4 address as it is, an IPv6 address by its /64 (one home or
 * one host's network, which hands out as many addresses as it likes); null stays null.
 */
export function clientKey(address: string | null): string | null {
  if (address === null || isIP(address) !== 6) return address
  return `${ipaddr.IPv6.parse(address)
    .parts.slice(0, 4)
    .map((p) => p.toString(16))
    .join(':')}::/64`
}
