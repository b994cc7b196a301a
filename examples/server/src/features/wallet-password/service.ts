/** The wallet password's OPRF key and the owner signature a success report carries. */
import { ed25519, ristretto255_oprf } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { verifyMessage } from 'viem'
import type { Keys } from '../../keys'

export const OPRF_KEY_PURPOSE = 'wallet-password-oprf-key'

/** The wallet's OPRF secret key: derived from the recovery key for this app and root. */
export function deriveOprfKey(recoveryKeys: Keys, appId: string, entropy: string): Uint8Array {
  const seed = recoveryKeys.derive(`portico wallet password oprf v1|${appId}|${entropy.toLowerCase()}`)
  return ristretto255_oprf.oprf.deriveKeyPair(seed, new TextEncoder().encode('portico wallet password')).secretKey
}

/** Checks a signature by the root's index-0 key over `message` (Ethereum EIP-191 or Solana ed25519). */
export async function verifyOwnerSignature(entropy: string, verifier: string | null, message: string, signature: string): Promise<boolean> {
  const ethereum = verifier ? verifier === 'ethereum-address-verifier' : entropy.startsWith('0x')
  try {
    if (ethereum) {
      if (!/^0x[0-9a-fA-F]{130}$/.test(signature) || !/^0x[0-9a-fA-F]{40}$/.test(entropy)) return false
      return await verifyMessage({ address: entropy as `0x${string}`, message, signature: signature as `0x${string}` })
    }
    return ed25519.verify(base58.decode(signature), new TextEncoder().encode(message), base58.decode(entropy))
  } catch {
    return false
  }
}
