/**
 * 2-of-3 Shamir sharing of the root entropy (`shamir-secret-sharing`, audited): a device
 * share, an auth share and a recovery share; any two rebuild the entropy. Shares travel as
 * base64 strings.
 */
import { combine, split } from 'shamir-secret-sharing'
import { base64 } from '@scure/base'

export interface Shares {
  device: Uint8Array
  auth: Uint8Array
  recovery: Uint8Array
}

export const SHARES = 3
export const THRESHOLD = 2

export async function splitEntropy(entropy: Uint8Array): Promise<Shares> {
  const [device, auth, recovery] = await split(entropy, SHARES, THRESHOLD)
  return { device, auth, recovery }
}

/** Rebuilds the entropy from two shares (any two of the three). */
export async function combineShares(a: Uint8Array, b: Uint8Array): Promise<Uint8Array> {
  return combine([a, b])
}

export const shareToString = (s: Uint8Array) => base64.encode(s)
export const shareFromString = (s: string) => base64.decode(s)
