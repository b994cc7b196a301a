/**
 * Export and delegation, frame side: the one place where a wallet's secret is read out of an
 * HD root. Device share (this origin's IndexedDB) + auth share (released by the server for
 * this purpose only, after `requireFreshMfa(…, 'export' | 'delegation')`) → entropy, checked
 * against the root's entropy id; the callback gets what it needs; everything is wiped after.
 *
 * Uses the wallet frame's primitives (device-store, shares, keys); the Ethereum child key is
 * derived with @scure/bip32 at the same path (HdRoot does not hand out raw Ethereum keys).
 */
import { HDKey } from '@scure/bip32'
import { base58 } from '@scure/base'
import { ethereumPath, type Authed, type ChainType, type EntropyRef } from '../src/wire/frame'
import { FRAME_TEXTS, FrameFailure, type FrameContext } from './context'
import { loadDeviceShare } from './device-store'
import { ImportedRoot, entropyToPhrase, matchesEntropyId, rootFromSecret, seedFromEntropy, type WalletRoot } from './keys'
import { combineShares, shareFromString } from './shares'
import type { AuthShareReply } from './session'

export type SecretPurpose = 'export' | 'delegation' | 'authorization'

export interface RootSecret {
  /** The HD root or imported key (addresses, Solana keys). */
  root: WalletRoot
  /** The BIP-39 phrase of the root (an imported key has none). */
  phrase(): string
  /** The raw 32-byte private key of wallet `index` (Ethereum secp256k1 scalar, Solana ed25519 seed). */
  privateKey(chainType: ChainType, index: number): Promise<Uint8Array>
}

/** Runs `fn` with the user's root unlocked for `purpose`, then wipes it. */
export async function withRootSecret<T>(ctx: FrameContext, ref: Authed & EntropyRef, purpose: SecretPurpose, fn: (s: RootSecret) => Promise<T>): Promise<T> {
  if (!ref.accessToken) throw new FrameFailure('invalid_request_arguments', FRAME_TEXTS.missingToken)
  const device = await loadDeviceShare(ctx.config.appId, ref.entropyId)
  if (!device) throw new FrameFailure('wallet_not_on_device', FRAME_TEXTS.notOnDevice)
  const auth = await ctx.api<AuthShareReply>('/wallets/auth_share', { entropy_id: ref.entropyId, purpose }, ref.accessToken)
  // The current auth share, else (a change this device missed, within the grace period) the previous one.
  let found: { entropy: Uint8Array; root: WalletRoot } | null = null
  for (const share of [auth.share, auth.previous_share]) {
    if (!share) continue
    try {
      const e = await combineShares(device, shareFromString(share))
      const r = await rootFromSecret(e, ref.entropyIdVerifier)
      if (await matchesEntropyId(r, ref.entropyId, ref.entropyIdVerifier)) {
        found = { entropy: e, root: r }
        break
      }
      r.wipe()
      e.fill(0)
    } catch {}
  }
  if (!found) throw new FrameFailure('error', FRAME_TEXTS.mismatch)
  const { entropy, root } = found
  const seeds: Uint8Array[] = []
  try {
    return await fn({
      root,
      phrase: () => {
        if (root instanceof ImportedRoot) throw new FrameFailure('invalid_request_arguments', IMPORTED_NO_PHRASE)
        return entropyToPhrase(entropy)
      },
      async privateKey(chainType, index) {
        if (root instanceof ImportedRoot) {
          root.address(chainType, index) // only its own chain and index 0
          return root.privateKey()
        }
        if (chainType === 'solana') return Uint8Array.from(root.solana(index).secretKey)
        const seed = await seedFromEntropy(entropy)
        seeds.push(seed)
        const key = HDKey.fromMasterSeed(seed).derive(ethereumPath(index)).privateKey
        if (!key) throw new FrameFailure('error', 'Key derivation failed')
        return Uint8Array.from(key)
      },
    })
  } finally {
    entropy.fill(0)
    for (const s of seeds) s.fill(0)
    root.wipe()
  }
}

/** The form wallets import: Ethereum 0x-hex; Solana base58 of the 64-byte secret key (seed + public key). */
export const IMPORTED_NO_PHRASE = 'An imported wallet has no recovery phrase: export its private key.'

export function exportedKey(chainType: ChainType, key: Uint8Array, root: WalletRoot, index: number): string {
  if (chainType === 'ethereum') return `0x${[...key].map((b) => b.toString(16).padStart(2, '0')).join('')}`
  const full = new Uint8Array(64)
  full.set(key, 0)
  full.set(root.solana(index).publicKey, 32)
  const s = base58.encode(full)
  full.fill(0)
  return s
}
