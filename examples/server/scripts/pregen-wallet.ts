/**
 * A pre-generated wallet (issue 32; examples/server/README.md 'Pre-generated wallets'), made on
 * the operator's machine by the import tool (scripts/pregen.ts), never on the server. The same
 * primitives as the wallet frame's own create (frame/keys.ts, shares.ts, seal.ts):
 *
 * - 16 bytes of entropy → the HD root → its index-0 Ethereum address (the wallet the operator
 *   can fund before the user ever logs in), and the entropy split 2-of-3 (shamir-secret-sharing);
 * - the **auth share** goes to the server in the import (sealed there at once, as every auth
 *   share is);
 * - the **claim share** is sealed under a new claim code (128 random bits; scrypt, then
 *   AES-256-GCM bound to the app and the root: a `user-passcode` v1 record marked `claim`), and
 *   the server stores only that sealed box; the code goes to the operator's claim file, for the
 *   user, out of band;
 * - the **third share** and the entropy are wiped here: nobody keeps them.
 *
 * At first login the user's wallet frame opens the box with the code (the password recovery
 * screen), rebuilds the root with the auth share, and splits it afresh (frame/handlers/
 * recovery-passcode.ts): from then on the server holds one share, as for any wallet.
 */
import { base64 } from '@scure/base'
import { HdRoot, generateEntropy, verifierFor } from '../frame/keys'
import { splitEntropy, shareToString } from '../frame/shares'
import { seal } from '../frame/seal'
import { recoveryProofKey } from '../frame/recovery-proof'
import { passcodeContext, passcodeKey } from '../frame/handlers/recovery-passcode'
import { newClaimCode, normaliseClaimCode } from '../frame/claim-code'

/** scrypt's cost for claim records: the code's 128 random bits carry the strength (a password's would need 2^17). */
export const CLAIM_KDF = { N: 2 ** 12, r: 8, p: 1 } as const

/** What the admin import takes per user as `embedded_wallet` (the server seals `auth_share` on arrival). */
export interface PregeneratedWallet {
  entropy_id: string
  entropy_id_verifier: 'ethereum-address-verifier'
  auth_share: string
  recovery_method: 'user-passcode'
  recovery_share: string
  recovery_meta: Record<string, string | number | boolean>
  recovery_proof_key: string
  wallets: { address: string; chain_type: 'ethereum' | 'solana'; wallet_index: 0 }[]
}

export async function pregenerateWallet(appId: string, o: { chainTypes?: ('ethereum' | 'solana')[] } = {}): Promise<{ wallet: PregeneratedWallet; address: string; claimCode: string }> {
  const chainTypes = o.chainTypes ?? ['ethereum']
  const entropy = generateEntropy()
  const root = await HdRoot.fromEntropy(entropy)
  const shares = await splitEntropy(entropy)
  entropy.fill(0)
  shares.device.fill(0)
  try {
    const verifier = verifierFor('ethereum') as 'ethereum-address-verifier'
    const entropyId = root.entropyId(verifier)
    const claimCode = newClaimCode()
    const salt = crypto.getRandomValues(new Uint8Array(16))
    const key = await passcodeKey(normaliseClaimCode(claimCode), salt, CLAIM_KDF)
    const wallet: PregeneratedWallet = {
      entropy_id: entropyId,
      entropy_id_verifier: verifier,
      auth_share: shareToString(shares.auth),
      recovery_method: 'user-passcode',
      recovery_share: await seal(shares.recovery, key, passcodeContext(appId, entropyId)),
      recovery_meta: { v: 1, kdf: 'scrypt', salt: base64.encode(salt), N: CLAIM_KDF.N, r: CLAIM_KDF.r, p: CLAIM_KDF.p, claim: true },
      recovery_proof_key: await recoveryProofKey(shares.recovery, appId, entropyId),
      wallets: chainTypes.map((chain_type) => ({ address: root.address(chain_type, 0), chain_type, wallet_index: 0 as const })),
    }
    return { wallet, address: entropyId, claimCode }
  } finally {
    shares.auth.fill(0)
    shares.recovery.fill(0)
    root.wipe()
  }
}
