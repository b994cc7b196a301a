/**
 * wallets:create / wallets:add / solana-wallet:create / wallets:connect / wallets:recover
 * (privy and registered methods) / wallets:set-recovery / wallets:clear.
 */
import type { ChainType, EntropyIdVerifier, EntropyRef, FrameWallet, RecoveryInput, RecoveryMethod } from '../../src/wire/frame'
import { FRAME_TEXTS, FrameFailure, type FrameContext } from '../context'
import { deleteDeviceShare, loadDeviceShare, saveDeviceShare } from '../device-store'
import { storageMode } from '../storage-check'
import { HdRoot, ImportedRoot, generateEntropy, matchesEntropyId, rootFromSecret, verifierFor, type WalletRoot } from '../keys'
import { parseImportedKey } from '../import-key'
import { fetchAuthShare, lease, rootFromAuth, unlock, clearSession, type AuthShareReply } from '../session'
import { recoveryProof, recoveryProofKey } from '../recovery-proof'
import { ownerMessage, setRecoveryFields } from '../../src/wire/custody'
import { combineShares, shareFromString, shareToString, splitEntropy, type Shares } from '../shares'
import { confirmRecovery, recoveryMethod, register, type SealedRecovery } from './registry'

const CHAIN_TYPES: ChainType[] = ['ethereum', 'solana']

/** The wallet list the server returns (snake case). */
interface ServerWallets {
  mfa_enrolled: boolean
}

function checkChainTypes(list: unknown): ChainType[] {
  if (!Array.isArray(list) || !list.length || list.some((c) => !CHAIN_TYPES.includes(c))) {
    throw new FrameFailure('invalid_request_arguments', 'chainTypes: expected a non-empty list of ethereum and solana')
  }
  return [...new Set(list as ChainType[])]
}

function checkIndex(i: unknown): number {
  if (typeof i !== 'number' || !Number.isInteger(i)) throw new FrameFailure('invalid_request_arguments', 'walletIndex: expected an integer')
  if (i < 0) throw new FrameFailure('invalid_request_arguments', FRAME_TEXTS.negativeIndex)
  return i
}

/** The recovery method a create asks for (a password means user-passcode), checked for a handler. */
function recoveryOf(input: { recoveryMethod?: RecoveryMethod; recoveryPassword?: string }): RecoveryMethod {
  const m = input.recoveryMethod ?? (input.recoveryPassword ? 'user-passcode' : 'privy')
  if (m !== 'privy') recoveryMethod(m)
  return m
}

/** Seals the recovery share for `method`: privy goes to the server, which seals it with its recovery key. */
export async function sealRecovery(
  ctx: FrameContext,
  method: RecoveryMethod,
  share: Uint8Array,
  input: RecoveryInput,
  entropyId: string,
  accessToken: string,
): Promise<{ recovery_method: RecoveryMethod; recovery_share: string; recovery_meta?: Record<string, unknown> }> {
  if (method === 'privy') return { recovery_method: 'privy', recovery_share: shareToString(share) }
  const sealed = await recoveryMethod(method).seal(share, input, { ...ctx, entropyId, accessToken })
  return { recovery_method: method, recovery_share: sealed.recoveryShare, recovery_meta: sealed.recoveryMeta }
}

/** A new HD root with its index-0 wallets; the server stores the public records and its shares. */
async function createRoot(
  ctx: FrameContext,
  p: { accessToken: string; chainTypes: ChainType[]; recoveryMethod?: RecoveryMethod; recoveryPassword?: string; recoveryAccessToken?: string },
) {
  if (!p.accessToken) throw new FrameFailure('invalid_request_arguments', FRAME_TEXTS.mustBeAuthenticated)
  const chainTypes = checkChainTypes(p.chainTypes)
  const method = recoveryOf(p)
  const entropy = generateEntropy()
  const root = await HdRoot.fromEntropy(entropy)
  const shares = await splitEntropy(entropy)
  entropy.fill(0)
  const entropyIdVerifier = verifierFor(chainTypes.includes('ethereum') ? 'ethereum' : 'solana')
  const entropyId = root.entropyId(entropyIdVerifier)
  const wallets: FrameWallet[] = chainTypes.map((chainType) => ({ chainType, walletIndex: 0, address: root.address(chainType, 0) }))
  await storeRoot(ctx, { ...p, recoveryMethod: method } as RecoveryInput & { accessToken: string }, root, shares, { entropyId, entropyIdVerifier }, '/wallets/create', {
    wallets: wallets.map((w) => ({ address: w.address, chain_type: w.chainType, wallet_index: w.walletIndex })),
  })
  return { entropyId, entropyIdVerifier, wallets, recoveryMethod: method, storage: storageMode() }
}

/**
 * Stores a new root (created or imported): seals its recovery share with the user's method, keeps
 * this device's share and sends the server its shares with the root's public records
 * (`records`: `wallets` for /wallets/create, `wallet` for /wallets/import), confirms the
 * recovery method, and keeps the root for this session.
 */
async function storeRoot(
  ctx: FrameContext,
  input: RecoveryInput & { accessToken: string },
  root: WalletRoot,
  shares: Shares,
  ref: { entropyId: string; entropyIdVerifier: EntropyIdVerifier },
  path: '/wallets/create' | '/wallets/import',
  records: Record<string, unknown>,
): Promise<void> {
  const method = input.recoveryMethod as RecoveryMethod
  const recovery = await sealRecovery(ctx, method, shares.recovery, input, ref.entropyId, input.accessToken)
  const res = await keptThenSent(ctx, ref.entropyId, shares.device, async (session_only) =>
    ctx.api<ServerWallets>(
      path,
      {
        entropy_id: ref.entropyId,
        entropy_id_verifier: ref.entropyIdVerifier,
        auth_share: shareToString(shares.auth),
        ...recovery,
        recovery_proof_key: await recoveryProofKey(shares.recovery, ctx.config.appId, ref.entropyId),
        ...records,
        session_only,
      },
      input.accessToken,
    ),
  )
  await confirmRecovery(method, root, null, input, { ...ctx, ...ref, accessToken: input.accessToken })
  lease(ctx, { accessToken: input.accessToken, ...ref }, root, res.mfa_enrolled).release()
}

/**
 * A new root's order (issue 26, no orphaned shares): this device keeps its share first (the
 * store keeps it in memory when storage fails, and the frame turns session-only), then the
 * server stores its shares, told whether this device holds its share for the tab only
 * (`session_only`). Should the server refuse, the device share goes again; should its answer be
 * lost after it stored the root, the auth and recovery shares still rebuild it (recovery).
 */
async function keptThenSent<T>(ctx: FrameContext, entropyId: string, device: Uint8Array, send: (sessionOnly: boolean) => Promise<T>): Promise<T> {
  await saveDeviceShare(ctx.config.appId, entropyId, device)
  try {
    return await send(storageMode() === 'session')
  } catch (e) {
    await deleteDeviceShare(ctx.config.appId, entropyId).catch(() => {})
    throw e
  }
}

async function addWallet(
  ctx: FrameContext,
  p: { accessToken: string; chainType: ChainType; walletIndex: number } & EntropyRef,
): Promise<{ wallet: FrameWallet; recoveryMethod: RecoveryMethod }> {
  const l = await unlock(ctx, p)
  try {
    const wallet: FrameWallet = { chainType: p.chainType, walletIndex: p.walletIndex, address: l.root.address(p.chainType, p.walletIndex) }
    const fields = { chain_type: wallet.chainType, wallet_index: wallet.walletIndex, address: wallet.address }
    const res = await ctx.api<{ recovery_method: RecoveryMethod }>('/wallets/add', { entropy_id: p.entropyId, ...fields }, p.accessToken, {
      // The change is signed by the root's index-0 key (a stolen token cannot add wallets).
      sign: async (nonce) => ({
        owner_signature: await l.root.signOwner(p.entropyIdVerifier, ownerMessage({ action: 'add', appId: ctx.config.appId, entropyId: p.entropyId, nonce, fields })),
      }),
    })
    return { wallet, recoveryMethod: res.recovery_method }
  } finally {
    l.release()
  }
}

register('wallets:create', async (p, ctx) => createRoot(ctx, p))

register('wallets:add', async (p, ctx) => {
  if (!CHAIN_TYPES.includes(p.chainType)) throw new FrameFailure('invalid_request_arguments', 'chainType: expected ethereum or solana')
  const walletIndex = checkIndex(p.walletIndex)
  return { wallet: (await addWallet(ctx, { ...p, walletIndex })).wallet }
})

register('solana-wallet:create', async (p, ctx) => {
  if (p.entropyId && p.entropyIdVerifier) {
    const ref = { accessToken: p.accessToken, entropyId: p.entropyId, entropyIdVerifier: p.entropyIdVerifier }
    const { wallet, recoveryMethod } = await addWallet(ctx, { ...ref, chainType: 'solana', walletIndex: 0 })
    return { entropyId: ref.entropyId, entropyIdVerifier: ref.entropyIdVerifier, wallet, recoveryMethod }
  }
  const r = await createRoot(ctx, { accessToken: p.accessToken, chainTypes: ['solana'] })
  return { entropyId: r.entropyId, entropyIdVerifier: r.entropyIdVerifier, wallet: r.wallets[0], recoveryMethod: r.recoveryMethod }
})

register('wallets:import', async (p, ctx) => {
  if (!p.accessToken) throw new FrameFailure('invalid_request_arguments', FRAME_TEXTS.mustBeAuthenticated)
  if (!CHAIN_TYPES.includes(p.chainType)) throw new FrameFailure('invalid_request_arguments', 'chainType: expected ethereum or solana')
  const method = recoveryOf(p)
  const key = parseImportedKey(p.chainType, p.privateKey)
  const root = new ImportedRoot(p.chainType, key)
  const shares = await splitEntropy(key)
  const entropyIdVerifier = verifierFor(p.chainType)
  const entropyId = root.entropyId(entropyIdVerifier)
  const wallet: FrameWallet = { chainType: p.chainType, walletIndex: 0, address: entropyId }
  try {
    await storeRoot(ctx, { ...p, recoveryMethod: method } as RecoveryInput & { accessToken: string }, root, shares, { entropyId, entropyIdVerifier }, '/wallets/import', {
      wallet: { address: wallet.address, chain_type: wallet.chainType },
    })
  } catch (e) {
    root.wipe()
    throw e
  }
  return { entropyId, entropyIdVerifier, wallet, recoveryMethod: method, storage: storageMode() }
})

register('wallets:connect', async (p, ctx) => {
  const l = await unlock(ctx, p)
  l.release()
  return { entropyId: p.entropyId, entropyIdVerifier: p.entropyIdVerifier, connected: true }
})

/** What POST /wallets/recovery_share returns: privy's share opened by the server, or a method's sealed record. */
interface RecoveryShareReply {
  recovery_method: RecoveryMethod
  /** privy: the share (base64); other methods: the sealed record as stored. */
  recovery_share: string
  recovery_meta?: Record<string, unknown> | null
}

register('wallets:recover', async (p, ctx) => {
  if (!p.accessToken) throw new FrameFailure('invalid_request_arguments', FRAME_TEXTS.missingToken)
  const stored = await ctx.api<RecoveryShareReply>('/wallets/recovery_share', { entropy_id: p.entropyId }, p.accessToken)
  const method = stored.recovery_method
  if (p.recoveryMethod && p.recoveryMethod !== method) throw new FrameFailure('invalid_request_arguments', FRAME_TEXTS.recoveryNotSupported)
  let share: Uint8Array
  const sealed: SealedRecovery = { recoveryShare: stored.recovery_share, recoveryMeta: stored.recovery_meta ?? undefined }
  if (method === 'privy') share = shareFromString(stored.recovery_share)
  else share = await recoveryMethod(method).open(sealed, { ...p, recoveryMethod: method }, { ...ctx, entropyId: p.entropyId, accessToken: p.accessToken })
  // A device that opened a user-owned share proves it (the server never sees the share); privy's
  // share came with a step-up that registered this device already.
  const auth = await ctx.api<AuthShareReply>('/wallets/auth_share', { entropy_id: p.entropyId }, p.accessToken, {
    sign: async (nonce, deviceId) =>
      method === 'privy' ? {} : { recovery_proof: await recoveryProof(share, { appId: ctx.config.appId, entropyId: p.entropyId, nonce, deviceId }) },
  })
  let root: WalletRoot
  try {
    root = await rootFromAuth(share, auth, p)
  } catch {
    throw new FrameFailure('error', FRAME_TEXTS.unableToRecover)
  }
  // This device joins the wallet: signed by the root's index-0 key (the user is told by the server).
  try {
    await ctx.api('/wallets/devices/register', { entropy_id: p.entropyId }, p.accessToken, {
      sign: async (nonce, deviceId) => ({
        owner_signature: await root.signOwner(p.entropyIdVerifier, ownerMessage({ action: 'register_device', appId: ctx.config.appId, entropyId: p.entropyId, nonce, fields: { device: deviceId } })),
      }),
    })
  } catch (e) {
    root.wipe()
    throw e
  }
  // Any two shares of the split rebuild the root: this device keeps the recovery share as its own.
  await saveDeviceShare(ctx.config.appId, p.entropyId, share)
  const l = lease(ctx, p, root, auth.mfa_enrolled)
  try {
    await confirmRecovery(method, root, sealed, { ...p, recoveryMethod: method }, { ...ctx, accessToken: p.accessToken, entropyId: p.entropyId, entropyIdVerifier: p.entropyIdVerifier })
  } finally {
    l.release()
  }
  return { entropyId: p.entropyId, entropyIdVerifier: p.entropyIdVerifier, recovered: true, storage: storageMode() }
})

register('wallets:set-recovery', async (p, ctx) => {
  // Moving to another method (or a new password) splits the root afresh: a new device share
  // for this device, a new auth share for the server and a new recovery share sealed by the
  // new method, replaced in one server transaction. Whatever the old method sealed (a backup of
  // the old database, the old password, the old cloud file) no longer combines with anything.
  const method = recoveryOf(p)
  if (!p.accessToken) throw new FrameFailure('invalid_request_arguments', FRAME_TEXTS.missingToken)
  const device = await loadDeviceShare(ctx.config.appId, p.entropyId)
  if (!device) throw new FrameFailure('wallet_not_on_device', FRAME_TEXTS.notOnDevice)
  const auth = await fetchAuthShare(ctx, p)
  // The current auth share, else (a change this device missed, within the grace period) the previous one.
  let found: { entropy: Uint8Array; root: WalletRoot } | null = null
  for (const s of [auth.share, auth.previous_share]) {
    if (!s || found) continue
    const e = await combineShares(device, shareFromString(s)).catch(() => null)
    if (!e) continue
    const r = await rootFromSecret(e, p.entropyIdVerifier).catch(() => null)
    if (r && (await matchesEntropyId(r, p.entropyId, p.entropyIdVerifier))) found = { entropy: e, root: r }
    else {
      r?.wipe()
      e.fill(0)
    }
  }
  if (!found) throw new FrameFailure('error', FRAME_TEXTS.mismatch)
  const { entropy, root } = found
  try {
    const shares = await splitEntropy(entropy)
    const recovery = await sealRecovery(ctx, method, shares.recovery, { ...p, recoveryMethod: method }, p.entropyId, p.accessToken)
    const body = { entropy_id: p.entropyId, ...recovery, auth_share: shareToString(shares.auth), recovery_proof_key: await recoveryProofKey(shares.recovery, ctx.config.appId, p.entropyId) }
    const fields = await setRecoveryFields(body)
    // The change is signed by the root's index-0 key: a stolen token cannot replace the shares.
    await ctx.api('/wallets/set_recovery', body, p.accessToken, {
      sign: async (nonce) => ({
        owner_signature: await root.signOwner(p.entropyIdVerifier, ownerMessage({ action: 'set_recovery', appId: ctx.config.appId, entropyId: p.entropyId, nonce, fields })),
      }),
    })
    // Only once the server holds the new shares: this device's share follows them.
    await saveDeviceShare(ctx.config.appId, p.entropyId, shares.device)
    await confirmRecovery(method, root, null, { ...p, recoveryMethod: method }, { ...ctx, accessToken: p.accessToken, entropyId: p.entropyId, entropyIdVerifier: p.entropyIdVerifier })
    return { entropyId: p.entropyId, entropyIdVerifier: p.entropyIdVerifier, recoveryMethod: method }
  } finally {
    entropy.fill(0)
    root.wipe()
  }
})

register('wallets:clear', async () => {
  clearSession()
  return { cleared: true }
})
