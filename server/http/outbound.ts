// The one way the service calls an address that came from a setting or from ingested data (the spreadsheet, the
// publisher's control server, a post's cancel link): never a redirect, and never an address on this machine or
// its networks (loopback, private, link-local, unique-local, multicast, unspecified or any other non-public range)
// unless OUTBOUND_ALLOW names it. The name is resolved once and the connection goes to the address that was checked,
// so a DNS answer that changes between the check and the connection cannot move it (TLS still verifies the name).
// The CalDAV store and the SMTP relay come from the environment and do not go through here.
import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number]

/** Why a call was not made: the address is not one the service may reach. */
export class OutboundRefused extends Error {
  override name = 'OutboundRefused'
}

/** Resolves a host name to its addresses (the system resolver; tests put their own). */
export type Resolver = (host: string) => Promise<string[]>
const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address)

/** Reads OUTBOUND_ALLOW's entries (`192.168.1.20/32`, `fd00::/8`, or a bare address); throws on one that is not. */
export function parseRanges(cidrs: readonly string[]): Range[] {
  return cidrs.map((cidr) => {
    try {
      return cidr.includes('/') ? ipaddr.parseCIDR(cidr) : ([ipaddr.parse(cidr), ipaddr.parse(cidr).kind() === 'ipv4' ? 32 : 128] as Range)
    } catch {
      throw new Error(`OUTBOUND_ALLOW: not an address range: ${cidr}`)
    }
  })
}

const IPV4_COMPATIBLE = ipaddr.parse('::')
const bare = (host: string) => host.replace(/^\[(.*)\]$/, '$1')
const isLocalhost = (host: string) => /^(.+\.)?localhost\.?$/i.test(host)

export class Outbound {
  readonly #allow: Range[]
  readonly #resolve: Resolver

  constructor(allow: readonly string[] = [], resolve: Resolver = systemResolver) {
    this.#allow = parseRanges(allow)
    this.#resolve = resolve
  }

  /** Whether OUTBOUND_ALLOW names this address (where plain http may go, for a push service on the LAN). */
  allowListed(address: string): boolean {
    if (!ipaddr.isValid(address)) return false
    const ip = ipaddr.process(address) // ::ffff:127.0.0.1 is 127.0.0.1
    return this.#allow.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits))
  }

  /** Whether the service may connect to this address: a public one, or one inside OUTBOUND_ALLOW. */
  mayReach(address: string): boolean {
    if (!ipaddr.isValid(address)) return false
    const ip = ipaddr.process(address) // ::ffff:127.0.0.1 is 127.0.0.1
    if (this.allowListed(address)) return true
    // ::/96 holds the deprecated IPv4-compatible form (::127.0.0.1), which ipaddr.js counts as unicast.
    return ip.range() === 'unicast' && !(ip.kind() === 'ipv6' && ip.match(IPV4_COMPATIBLE, 96))
  }

  /**
   * Why an address may not be written into a setting or a post (a 422 then), or null: an http(s) URL whose host is
   * an address literal the service may not reach, or `localhost`. Names are resolved only when called.
   */
  problemWith(value: string): string | null {
    let url: URL
    try {
      url = new URL(value)
    } catch {
      return 'must be an http(s) URL'
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http(s) URL'
    const host = bare(url.hostname)
    const literal = isLocalhost(host) ? '127.0.0.1' : isIP(host) ? host : null
    if (literal && !this.mayReach(literal))
      return 'must not point at this machine or a private network (OUTBOUND_ALLOW in the environment can allow one)'
    return null
  }

  /**
   * `fetch` to `url` under the rules above, with a deadline that covers the name lookup too; a 3xx is answered as
   * it is, never followed. Throws OutboundRefused for an address it may not reach, and what fetch throws otherwise.
   * With `httpsOutsideAllow` (push endpoints, which a browser chose) plain http goes only inside OUTBOUND_ALLOW.
   */
  async fetch(url: string, init: RequestInit, timeoutMs: number, rules: { httpsOutsideAllow?: boolean } = {}): Promise<Response> {
    const problem = this.problemWith(url)
    if (problem) throw new OutboundRefused(`${url}: ${problem}`)
    const target = new URL(url)
    const host = bare(target.hostname)
    const signal = AbortSignal.timeout(timeoutMs)
    const addresses = isIP(host) ? [host] : await Promise.race([this.#resolve(host), aborted(signal)])
    const refused = addresses.filter((a) => !this.mayReach(a))
    if (!addresses.length || refused.length)
      throw new OutboundRefused(`${host} resolves to ${refused.join(', ') || 'nothing'}, which is not allowed`)
    if (rules.httpsOutsideAllow && target.protocol === 'http:' && !addresses.every((a) => this.allowListed(a)))
      throw new OutboundRefused(`${url}: plain http goes only to an address inside OUTBOUND_ALLOW`)
    const address = addresses[0]
    const pinned = new URL(target)
    pinned.hostname = isIP(address) === 6 ? `[${address}]` : address
    const headers = new Headers(init.headers)
    headers.set('host', target.host)
    const tls = target.protocol === 'https:' && !isIP(host) ? { serverName: host } : undefined
    return fetch(pinned, { ...init, headers, signal, redirect: 'manual', tls } as RequestInit)
  }
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }))
}
