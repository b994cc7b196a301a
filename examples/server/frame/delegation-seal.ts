/**
 * Delegation consent, frame side: one wallet's private key (and the policy the user allowed) sealed to the reference server's
 * delegation key (GET /api/v1/wallets/delegation_key) as a compact JWE, ECDH-ES (P-256) +
 * A256GCM, by jose. Only the server can open it (its private half comes from PORTICO_SECRET);
 * the host page never sees either the key or the JWE's plaintext.
 */
import { CompactEncrypt, importJWK, type JWK } from 'jose'
import type { DelegationPolicy } from '../src/wire/frame'

export interface DelegatedKey {
  address: string
  chain_type: 'ethereum' | 'solana'
  /** The wallet's 32-byte private key (Ethereum secp256k1 scalar, Solana ed25519 seed), hex. */
  private_key: string
  /** The policy the user allowed (sealed with the key: the server checks this copy). */
  policy?: DelegationPolicy
}

export async function sealWalletKey(serverJwk: JWK, key: DelegatedKey): Promise<string> {
  if (serverJwk.kty !== 'EC' || serverJwk.crv !== 'P-256') throw new Error('Unexpected delegation key')
  const pub = await importJWK({ kty: 'EC', crv: 'P-256', x: serverJwk.x, y: serverJwk.y }, 'ECDH-ES')
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(key)))
    .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A256GCM', ...(serverJwk.kid ? { kid: serverJwk.kid } : {}) })
    .encrypt(pub)
}
