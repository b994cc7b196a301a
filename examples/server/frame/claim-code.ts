/**
 * Claim codes of pre-generated wallets (issue 32; examples/server/README.md 'Pre-generated
 * wallets'): 128 random bits written in Crockford's base32 (26 characters, in groups of five),
 * the secret that opens a pre-generated wallet's claim share. The operator's import tool makes
 * them (scripts/pregen-wallet.ts); the frame reads what the user typed through the same
 * normalisation, so case, spaces, hyphens and the look-alikes I, L (1) and O (0) do not matter.
 */
import { base32crockford } from '@scure/base'

export const CLAIM_CODE_BYTES = 16

/** A new claim code: `XXXXX-XXXXX-XXXXX-XXXXX-XXXXX-X`. */
export function newClaimCode(): string {
  const raw = base32crockford.encode(crypto.getRandomValues(new Uint8Array(CLAIM_CODE_BYTES))).replace(/=+$/, '')
  return raw.match(/.{1,5}/g)!.join('-')
}

/** What a claim record is sealed under: the code in capitals, separators dropped, look-alikes mapped. */
export function normaliseClaimCode(typed: string): string {
  return typed
    .toUpperCase()
    .replace(/[IL]/g, '1')
    .replace(/O/g, '0')
    .replace(/[^0-9A-Z]/g, '')
}
