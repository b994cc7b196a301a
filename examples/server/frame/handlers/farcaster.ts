/**
 * Farcaster signers inside the frame (spec part 2 section 7: 'farcaster init-signer and sign';
 * issue 30). The signer is an Ed25519 key derived from the user's wallet root with HKDF-SHA256
 * (keys.ts purposeKey, purpose 'farcaster signer v1|<app id>'): it exists wherever the root can
 * be unlocked (this device's share + the server's auth share, or a recovery), so it survives a
 * reload and is recovered with the wallet, and it is never stored nor sent out of the frame.
 * The host gets its public key and signatures only.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js'
import { FrameFailure, type FrameContext } from '../context'
import type { WalletRoot } from '../keys'
import { unlock } from '../session'
import { register } from './registry'

const bad = (msg: string) => new FrameFailure('invalid_request_arguments', msg)

/** The signer's purpose label: one key per app and wallet root. */
export const farcasterSignerPurpose = (appId: string) => `farcaster signer v1|${appId}`

/** Runs `use` with the signer's secret key, then wipes it. */
function withSigner<T>(root: WalletRoot, ctx: FrameContext, use: (secret: Uint8Array) => T): T {
  const secret = root.purposeSecret(farcasterSignerPurpose(ctx.config.appId))
  try {
    return use(secret)
  } finally {
    secret.fill(0)
  }
}

register('farcaster:init-signer', async (p, ctx) => {
  const lease = await unlock(ctx, p)
  try {
    return { publicKey: `0x${bytesToHex(withSigner(lease.root, ctx, (s) => ed25519.getPublicKey(s)))}` }
  } finally {
    lease.release()
  }
})

register('farcaster:sign', async (p, ctx) => {
  if (typeof p.hash !== 'string' || !/^0x([0-9a-fA-F]{2}){1,64}$/.test(p.hash)) throw bad('hash: expected 0x and 1 to 64 bytes of hex')
  const message = hexToBytes(p.hash.slice(2))
  const lease = await unlock(ctx, p)
  try {
    return withSigner(lease.root, ctx, (s) => ({
      publicKey: `0x${bytesToHex(ed25519.getPublicKey(s))}`,
      signature: `0x${bytesToHex(ed25519.sign(message, s))}`,
    }))
  } finally {
    lease.release()
  }
})
