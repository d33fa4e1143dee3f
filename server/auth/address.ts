// Client address rules: who the caller really is (TRUST_PROXY) and whether that is the LAN (LAN_CIDRS).
import { BlockList, isIP } from 'node:net'

export interface AddressRules {
  clientAddress(peer: string | null, forwardedFor: string | null): string | null
  isLan(address: string | null): boolean
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

export function addressRules(trustProxy: string[], lanCidrs: string[]): AddressRules {
  const proxies = blockList(trustProxy)
  const lanList = blockList(lanCidrs)
  const lan = remembered((address) => contains(lanList, address))
  return {
    /** The socket peer, unless it is a trusted proxy: then the right-most forwarded entry that is not one. */
    clientAddress(peer, forwardedFor) {
      if (!peer) return null
      if (!forwardedFor || !contains(proxies, peer)) return unmapped(peer)
      const hops = forwardedFor
        .split(',')
        .map((h) => h.trim())
        .filter(Boolean)
      for (let i = hops.length - 1; i >= 0; i--) {
        // A malformed hop makes the client unknown, which never counts as the LAN.
        if (!isIP(unmapped(hops[i]))) return null
        if (!contains(proxies, hops[i])) return unmapped(hops[i])
      }
      return hops.length ? unmapped(hops[0]) : unmapped(peer)
    },
    isLan: lan,
  }
}
