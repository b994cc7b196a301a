/**
 * Unlocking an HD root inside the frame: device share (IndexedDB) + auth share (server, only
 * to this origin with a valid access token) → entropy → root. When the server says the user
 * has no MFA method, the root stays in this frame's memory for the session (bound to the
 * access token that unlocked it); otherwise it is wiped after the one operation.
 */
import type { Authed, EntropyRef } from '../src/wire/frame'
import { FRAME_TEXTS, FrameFailure, type FrameContext } from './context'
import { loadDeviceShare } from './device-store'
import { matchesEntropyId, rootFromSecret, type WalletRoot } from './keys'
import { combineShares, shareFromString } from './shares'

interface Cached {
  accessToken: string
  root: WalletRoot
}

const cache = new Map<string, Cached>()
const pending = new Map<string, Promise<Lease>>()

/** A root for one operation: call `release()` when done (wipes it unless cached). */
export interface Lease {
  root: WalletRoot
  release(): void
}

const key = (appId: string, entropyId: string) => `${appId}:${entropyId.toLowerCase()}`

export interface AuthShareReply {
  share: string
  mfa_enrolled: boolean
  /** Within the grace period after a change of the shares: the replaced auth share. */
  previous_share?: string
}

/**
 * The root from this device's share and the server's auth share: the current one, else (a
 * device that missed a change of the shares, within the grace period) the previous one.
 */
export async function rootFromAuth(device: Uint8Array, auth: AuthShareReply, ref: EntropyRef): Promise<WalletRoot> {
  try {
    return await rootFromShares(device, shareFromString(auth.share), ref)
  } catch (e) {
    if (!auth.previous_share) throw e
    return rootFromShares(device, shareFromString(auth.previous_share), ref)
  }
}

export function fetchAuthShare(ctx: FrameContext, req: Authed & EntropyRef): Promise<AuthShareReply> {
  return ctx.api<AuthShareReply>('/wallets/auth_share', { entropy_id: req.entropyId }, req.accessToken)
}

/** Rebuilds and checks a root from two shares; a tampered or foreign share fails. */
export async function rootFromShares(a: Uint8Array, b: Uint8Array, ref: EntropyRef): Promise<WalletRoot> {
  let root: WalletRoot
  try {
    const secret = await combineShares(a, b)
    root = await rootFromSecret(secret, ref.entropyIdVerifier)
    secret.fill(0)
  } catch {
    throw new FrameFailure('error', FRAME_TEXTS.mismatch)
  }
  if (!(await matchesEntropyId(root, ref.entropyId, ref.entropyIdVerifier))) {
    root.wipe()
    throw new FrameFailure('error', FRAME_TEXTS.mismatch)
  }
  return root
}

/** Keep `root` for the session (no MFA) or hand it out for one operation. */
export function lease(ctx: FrameContext, ref: Authed & EntropyRef, root: WalletRoot, mfaEnrolled: boolean): Lease {
  const k = key(ctx.config.appId, ref.entropyId)
  if (!mfaEnrolled) {
    const old = cache.get(k)
    if (old && old.root !== root) old.root.wipe()
    cache.set(k, { accessToken: ref.accessToken, root })
    return { root, release: () => {} }
  }
  return { root, release: () => root.wipe() }
}

export async function unlock(ctx: FrameContext, ref: Authed & EntropyRef): Promise<Lease> {
  if (!ref.accessToken) throw new FrameFailure('invalid_request_arguments', FRAME_TEXTS.missingToken)
  const k = key(ctx.config.appId, ref.entropyId)
  const hit = cache.get(k)
  if (hit && hit.accessToken === ref.accessToken) return { root: hit.root, release: () => {} }
  const running = pending.get(k)
  if (running) {
    const got = await running.catch(() => null)
    const again = cache.get(k)
    if (got && again && again.accessToken === ref.accessToken) return { root: again.root, release: () => {} }
  }
  const p = (async () => {
    const device = await loadDeviceShare(ctx.config.appId, ref.entropyId)
    if (!device) throw new FrameFailure('wallet_not_on_device', FRAME_TEXTS.notOnDevice)
    const auth = await fetchAuthShare(ctx, ref)
    const root = await rootFromAuth(device, auth, ref)
    return lease(ctx, ref, root, auth.mfa_enrolled)
  })()
  pending.set(k, p)
  try {
    return await p
  } finally {
    pending.delete(k)
  }
}

/** Forget every cached root (logout, user change). */
export function clearSession(): void {
  for (const c of cache.values()) c.root.wipe()
  cache.clear()
}
