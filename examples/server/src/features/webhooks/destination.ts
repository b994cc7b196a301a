/**
 * Where a webhook may be sent (server-side request forgery guard). A webhook URL is written by
 * an operator or an admin API key; without this guard, whoever holds one could make the server
 * POST to its own network (a cloud metadata address, a database's HTTP port, localhost).
 *
 * Only public unicast addresses are reached: loopback, private (RFC 1918), link-local (the
 * 169.254.169.254 metadata service), unique-local, carrier-grade NAT, multicast, unspecified
 * and reserved addresses are refused — checked on the address the connection really uses (the
 * resolver's answer, inside the socket's lookup), so a name that resolves to a private
 * address, or changes its answer after a check (DNS rebinding), is refused too.
 *
 * Development mode, and `PORTICO_WEBHOOKS_ALLOW_PRIVATE=1` for receivers on your own network,
 * turn the guard off.
 */
import dns from 'node:dns'
import type { LookupFunction } from 'node:net'
import ipaddr from 'ipaddr.js'

/** The range of a literal IPv4/IPv6 address ('unicast' is public), or null when it is not one. */
export function addressRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return null
  let a = ipaddr.parse(address)
  if (a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress()) a = (a as ipaddr.IPv6).toIPv4Address()
  return a.range()
}

export const isPublicAddress = (address: string): boolean => addressRange(address) === 'unicast'

export class PrivateDestinationError extends Error {
  readonly code = 'EPRIVATEDEST'
  constructor(host: string, address: string) {
    super(`refused: ${host} is a ${addressRange(address) ?? 'non-public'} address (${address}); webhooks go to public addresses only (PORTICO_WEBHOOKS_ALLOW_PRIVATE=1 allows your own network)`)
  }
}

/**
 * A socket lookup that answers only public addresses: every address the resolver gives must be
 * public (a name with one private answer is refused whole, so a retry cannot land on it).
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0)
    const list = addresses as dns.LookupAddress[]
    const bad = list.find((a) => !isPublicAddress(a.address))
    if (bad) return callback(new PrivateDestinationError(hostname, bad.address) as NodeJS.ErrnoException, '', 0)
    if ((options as dns.LookupOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list)
    callback(null, list[0].address, list[0].family)
  })
}

/** Refuses a URL whose host is a literal non-public address (a literal never reaches the lookup). */
export function checkLiteralHost(url: URL): void {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (addressRange(host) !== null && !isPublicAddress(host)) throw new PrivateDestinationError(host, host)
}
