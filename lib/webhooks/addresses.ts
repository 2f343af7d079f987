// Where a webhook may send (integration.md §20): https only unless `webhooks.allowInsecure`, and
// never to loopback, private, link-local, shared or metadata addresses unless
// `webhooks.allowPrivate`. Checked on the URL when a webhook is saved, and on every address the
// name resolves to at each delivery (a name can point anywhere later): the request then connects
// to the address that was checked, so a second lookup cannot swap it (DNS rebinding).
import { lookup as dnsLookup } from 'node:dns/promises'
import { BlockList, isIP } from 'node:net'

/** Resolves a host name to its addresses (the system resolver; tests inject their own). */
export type Resolver = (hostname: string) => Promise<readonly { address: string; family: number }[]>

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true })

const BLOCKED = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(network, prefix, 'ipv4')
// Unspecified, loopback, unique-local (AWS's IPv6 metadata fd00:ec2::254 among them), link-local,
// multicast, documentation; IPv4-mapped and NAT64 addresses are checked as the IPv4 they carry.
for (const [network, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32]] as const) BLOCKED.addSubnet(network, prefix, 'ipv6')

/** The IPv4 address an IPv6 one carries (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`), if any. */
function embeddedIpv4(address: string): string | undefined {
  const match = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address)
  if (match === null) return undefined
  if (match[1] !== undefined) return match[1]
  const high = parseInt(match[2]!, 16)
  const low = parseInt(match[3]!, 16)
  return [high >> 8, high & 255, low >> 8, low & 255].join('.')
}

/** True for an address a webhook may not reach without `allowPrivate`. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 4) return BLOCKED.check(address, 'ipv4')
  if (family !== 6) return true
  const v4 = embeddedIpv4(address)
  return v4 !== undefined ? BLOCKED.check(v4, 'ipv4') : BLOCKED.check(address, 'ipv6')
}

export interface AddressRules {
  readonly allowInsecure: boolean
  readonly allowPrivate: boolean
}

/** Why `url` may not be a webhook's address, or undefined when it may (no lookup: names are checked at delivery). */
export function urlProblem(raw: string, rules: AddressRules): string | undefined {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'must be an absolute URL'
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && rules.allowInsecure)) {
    return rules.allowInsecure ? 'must be an http or https URL' : 'must be an https URL (plain http needs webhooks.allowInsecure)'
  }
  if (url.username !== '' || url.password !== '') return 'must not hold credentials: send them in a header'
  const host = hostOf(url)
  if (!rules.allowPrivate && isIP(host) !== 0 && isPrivateAddress(host)) return 'must not be a loopback, private, link-local or metadata address (webhooks.allowPrivate)'
  return undefined
}

/** A URL's host name without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1')
}

/** The address to connect to for `host`: refused (throws) when any address it resolves to is private. */
export async function pickAddress(host: string, rules: AddressRules, resolve: Resolver): Promise<{ address: string; family: number }> {
  const literal = isIP(host)
  const addresses = literal !== 0 ? [{ address: host, family: literal }] : await resolve(host)
  if (addresses.length === 0) throw new Error(`${host} does not resolve`)
  // Every address is checked, not only the one used: a name may answer differently next time.
  const blocked = addresses.find((entry) => isPrivateAddress(entry.address))
  if (blocked !== undefined && !rules.allowPrivate) throw new Error(`refused: ${host} resolves to ${blocked.address}, a loopback, private, link-local or metadata address`)
  return addresses[0]!
}
