/**
 * Embedded wallets (issue 14; spec part 2 sections 3, 5, 7): the server's half of the wallet
 * frame. The frame (served from its own origin, see src/frame-server.ts) generates the key
 * material; the server keeps the public wallet records (linked accounts of type 'wallet',
 * wallet_client_type 'privy') and, per HD root, two of the three Shamir shares:
 *
 * - the auth share, sealed at rest with a key derived from PORTICO_SECRET, released only to a
 *   registered wallet device bound to the session (a device proof, src/features/wallets/device.ts; issue
 *   26), with a valid access token and after `requireFreshMfa(ctx, auth, 'auth_share')`;
 * - the recovery share: for `privy` (automatic recovery) sealed with the recovery key
 *   (PORTICO_RECOVERY_KEY, kept outside the database); for user-owned methods
 *   (user-passcode, google-drive, icloud) stored as the frame sealed it, unreadable here.
 *
 *   POST /wallets/create          new HD root + its index-0 wallets
 *   POST /wallets/add             another wallet on the user's root (index rules of section 5)
 *   POST /wallets/device_nonce    a nonce for the next device proof
 *   POST /wallets/auth_share      the auth share (a registered device) and whether the frame may cache it
 *   POST /wallets/recovery_share  the recovery share (privy: opened, after a step-up; others: as sealed)
 *   POST /wallets/devices/register  a device joins after a recovery (step-up grant or owner signature)
 *   POST /wallets/set_recovery    reseal the recovery share under another method (owner signature)
 *   POST /wallets/import          an imported private key: a root of its own (imported: true)
 *
 * Every write runs in one transaction after every check; a refused request writes nothing.
 */
import type { Hono } from 'hono'
import { z } from 'zod'
import { hitLimit } from '../../codes'
import type { Env, ServerCtx } from '../../core/context'
import { ApiError, errors } from '../../core/errors'
import { emitEvent } from '../../core/events'
import { now } from '../../core/identity/tokens'
import { router } from '../../core/router'
import { id } from '../../core/validate'
import type { Keys } from '../../keys'
import { requireFreshMfa } from '../mfa/gate'
import { SHARE_GRACE_S, consumeStepUpGrant, setRecoveryFields } from './custody'
import { answerWithNonce, custodyErrors, deviceLabel, notifyNewDevice, rebindSession, registerDevice, verifyRecoveryProof } from './device'
import { WALLET_MSG } from './errors'
import type { WalletOptions } from './keys'
import { keepReplacedShares, previousAuthShare, setRootRecovery } from './repo'
import { walletAddress, walletService, type WalletGuard } from './service'

export { walletAddress, type WalletGuard }

const RECOVERY_METHODS = ['privy', 'user-passcode', 'google-drive', 'icloud'] as const
const CHAIN_TYPES = ['ethereum', 'solana'] as const
const VERIFIERS = ['ethereum-address-verifier', 'solana-address-verifier'] as const

const b64 = (max: number) => z.string().min(1, 'Required').max(max, `Must be at most ${max} characters`).regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Expected base64')
const walletIndex = z
  .number({ message: 'Expected an integer' })
  .int('Expected an integer')
  .min(0, WALLET_MSG.negativeIndex)
  .max(2 ** 31 - 1, 'Must be below 2^31')
const entropyId = id(64)
const chainType = z.enum(CHAIN_TYPES, { message: "Expected 'ethereum' or 'solana'" })
const recoveryShape = {
  recovery_method: z.enum(RECOVERY_METHODS, { message: WALLET_MSG.recoveryNotSupported }),
  /** privy: the share (base64, 17 bytes); other methods: the frame's sealed form (opaque). */
  recovery_share: z.string().min(1, 'Required').max(8192, 'Must be at most 8192 characters'),
  recovery_meta: z.record(z.string().max(64), z.union([z.string().max(2048), z.number(), z.boolean(), z.null()])).nullish(),
  /** The public half of the key the frame derives from the recovery share (frame/recovery-proof.ts). */
  recovery_proof_key: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Expected a base64url ed25519 public key').nullish(),
}
/** A signature by the root's index-0 key over ownerMessage() (wallet-owner-message.ts). */
const ownerSignature = z.string().min(1, 'Required').max(256, 'Must be at most 256 characters')

const createBody = z.object({
  entropy_id: entropyId,
  entropy_id_verifier: z.enum(VERIFIERS, { message: 'Unknown entropy id verifier' }),
  auth_share: b64(64),
  ...recoveryShape,
  wallets: z
    .array(z.object({ address: id(64), chain_type: chainType, wallet_index: walletIndex }))
    .min(1, 'Required')
    .max(2, 'At most one wallet per chain type'),
  /** The frame keeps its device key and share in memory only (storage blocked): the device lives for one page session. */
  session_only: z.boolean({ message: 'Expected a boolean' }).nullish(),
})
const addBody = z.object({ entropy_id: entropyId, address: id(64), chain_type: chainType, wallet_index: walletIndex, owner_signature: ownerSignature.nullish() })
const rootBody = z.object({ entropy_id: entropyId })
/** `purpose`: what the frame unlocks the wallet for (an export, a delegation consent or an EIP-7702 authorisation is gated as such). */
const authShareBody = rootBody.extend({
  purpose: z.enum(['export', 'delegation', 'authorization'], { message: "Expected 'export', 'delegation' or 'authorization'" }).nullish(),
  /** A new device that opened a user-owned recovery share proves it (frame/recovery-proof.ts). */
  recovery_proof: z.string().max(128, 'Must be at most 128 characters').nullish(),
})
const registerBody = rootBody.extend({ owner_signature: ownerSignature.nullish() })
const importBody = z.object({
  entropy_id: entropyId,
  entropy_id_verifier: z.enum(VERIFIERS, { message: 'Unknown entropy id verifier' }),
  auth_share: b64(64),
  ...recoveryShape,
  wallet: z.object({ address: id(64), chain_type: chainType }),
  session_only: z.boolean({ message: 'Expected a boolean' }).nullish(),
})
/** `auth_share`: the frame split the root afresh; the server's share is replaced with the recovery share. */
const setRecoveryBody = z.object({ entropy_id: entropyId, ...recoveryShape, auth_share: b64(64).nullish(), owner_signature: ownerSignature.nullish() })

export function walletsRoutes(ctx: ServerCtx, opts: WalletOptions = {}): { app: Hono<Env>; guard: WalletGuard; recoveryKeys: Keys } {
  const r = router(ctx)
  const svc = walletService(ctx, opts)
  const { fromDevice, rootOf, user } = svc

  r.post('/wallets/device_nonce', { summary: "A nonce for the wallet frame's next device proof (also in the portico-device-nonce header)", auth: 'bearer' }, async (c, { auth }) => {
    if (!(await hitLimit(ctx.store, `wallet-nonce:${auth.userId}`, ctx.limits.perIp * 4, ctx.limits.windowS))) throw errors.tooMany()
    c.header('cache-control', 'no-store')
    return c.json({ nonce: await answerWithNonce(c, ctx, auth) })
  })

  r.post('/wallets/create', { summary: "Create an embedded wallet (HD root, index-0 wallets, auth and recovery shares) — the session's wallet device only", body: createBody, guard: (c, b) => fromDevice(c, { entropyId: b.entropy_id }) }, async (c, { body: b, auth: device }) => {
    const auth = device.auth
    const app = c.get('app')
    const seen = new Set<string>()
    const wallets = b.wallets.map((w) => {
      if (w.wallet_index !== 0) throw errors.invalidData('wallets: a new embedded wallet starts at index 0', { fields: { wallets: 'Index 0 only' } }, 422)
      if (seen.has(w.chain_type)) throw errors.invalidData('wallets: at most one wallet per chain type', { fields: { wallets: 'One per chain type' } }, 422)
      seen.add(w.chain_type)
      return { ...w, address: walletAddress(w.chain_type, w.address) }
    })
    const verifierChain = b.entropy_id_verifier === 'ethereum-address-verifier' ? 'ethereum' : 'solana'
    const idWallet = wallets.find((w) => w.chain_type === verifierChain)
    if (!idWallet || walletAddress(verifierChain, b.entropy_id) !== idWallet.address) {
      throw errors.invalidData('entropy_id: must be the index-0 address of the verifier chain', { fields: { entropy_id: 'Not the root address' } }, 422)
    }
    // Creating releases nothing: MFA only decides whether the frame may keep the new root for
    // the session (a user with MFA and no fresh verification still creates; the frame forgets it).
    const gate = await requireFreshMfa(ctx, auth, 'auth_share').catch((e) => {
      if (e instanceof ApiError && e.code === 'missing_or_invalid_mfa') return { mfaEnrolled: true }
      throw e
    })
    const entropy = idWallet.address
    const recoveryShare = await svc.sealRecovery(app.id, entropy, b.recovery_method, b.recovery_share)
    const authShare = await svc.sealAuth(app.id, entropy, b.auth_share)
    const root = { appId: app.id, entropyId: entropy, userId: auth.userId, verifier: b.entropy_id_verifier, authShare, recoveryMethod: b.recovery_method, recoveryShare, recoveryMeta: b.recovery_meta, imported: false, sessionId: auth.sessionId, recoveryProofKey: b.recovery_proof_key }
    await svc.insertNewRoot(device, root, wallets, (q) =>
      registerDevice(q, { appId: app.id, userId: auth.userId, deviceId: device.deviceId, jwk: device.jwk, addedBy: 'create', label: deviceLabel(c.req.header('user-agent')), sessionOnly: !!b.session_only }),
    )
    ctx.log.info({ app_id: app.id, wallets: wallets.length, recovery_method: b.recovery_method }, 'embedded wallet created')
    return c.json({ user: await user(auth.userId), mfa_enrolled: gate.mfaEnrolled })
  })

  r.post('/wallets/add', { summary: "Add a wallet on the user's HD root (createAdditional / walletIndex) — a registered wallet device only", body: addBody, guard: (c, b) => fromDevice(c, { entropyId: b.entropy_id, registered: true }) }, async (c, { body: b, auth: device }) => {
    const auth = device.auth
    const app = c.get('app')
    const address = walletAddress(b.chain_type, b.address)
    const current = await rootOf(ctx.store, app.id, auth.userId, b.entropy_id)
    if (current.imported) throw errors.invalidData(WALLET_MSG.importedHasNoSiblings, undefined, 400)
    await svc.requireOwner(c, device, current, 'add', b.owner_signature, {
      chain_type: b.chain_type,
      wallet_index: b.wallet_index,
      address: b.address,
    })
    await svc.addWallet(app.id, auth.userId, b.entropy_id, { address, chain_type: b.chain_type, wallet_index: b.wallet_index })
    const root = await rootOf(ctx.store, app.id, auth.userId, b.entropy_id)
    return c.json({ user: await user(auth.userId), recovery_method: root.recovery_method })
  })

  r.post('/wallets/import', { summary: "Register an imported private key as a root wallet of its own (imported: true) — the session's wallet device only", body: importBody, guard: (c, b) => fromDevice(c, { entropyId: b.entropy_id }) }, async (c, { body: b, auth: device }) => {
    const auth = device.auth
    const app = c.get('app')
    const address = walletAddress(b.wallet.chain_type, b.wallet.address)
    const verifierChain = b.entropy_id_verifier === 'ethereum-address-verifier' ? 'ethereum' : 'solana'
    if (verifierChain !== b.wallet.chain_type || walletAddress(verifierChain, b.entropy_id) !== address) {
      throw errors.invalidData(WALLET_MSG.importMismatch, { fields: { entropy_id: 'Not the wallet address' } }, 422)
    }
    const gate = await requireFreshMfa(ctx, auth, 'auth_share').catch((e) => {
      if (e instanceof ApiError && e.code === 'missing_or_invalid_mfa') return { mfaEnrolled: true }
      throw e
    })
    const recoveryShare = await svc.sealRecovery(app.id, address, b.recovery_method, b.recovery_share)
    const authShare = await svc.sealAuth(app.id, address, b.auth_share)
    const root = { appId: app.id, entropyId: address, userId: auth.userId, verifier: b.entropy_id_verifier, authShare, recoveryMethod: b.recovery_method, recoveryShare, recoveryMeta: b.recovery_meta, imported: true, sessionId: auth.sessionId, recoveryProofKey: b.recovery_proof_key }
    await svc.insertNewRoot(device, root, [{ address, chain_type: b.wallet.chain_type, wallet_index: 0 }], (q) =>
      registerDevice(q, { appId: app.id, userId: auth.userId, deviceId: device.deviceId, jwk: device.jwk, addedBy: 'import', label: deviceLabel(c.req.header('user-agent')), sessionOnly: !!b.session_only }),
    )
    ctx.log.info({ app_id: app.id, chain_type: b.wallet.chain_type, recovery_method: b.recovery_method }, 'embedded wallet imported')
    return c.json({ user: await user(auth.userId), mfa_enrolled: gate.mfaEnrolled })
  })

  r.post('/wallets/auth_share', { summary: "The auth share of the user's wallet — a registered wallet device bound to the session, fresh MFA when enrolled", body: authShareBody, guard: (c, b) => fromDevice(c, { entropyId: b.entropy_id, binding: 'any' }) }, async (c, { body: b, auth: device }) => {
    const auth = device.auth
    const app = c.get('app')
    const row = await rootOf(ctx.store, app.id, auth.userId, b.entropy_id)
    if (!(device.row && device.row.revoked_at == null && device.bound)) {
      // Not this session's registered device: only a device that opened a user-owned recovery
      // share (the password or the cloud file is the factor the token lacks) proves it here.
      const proven =
        row.recovery_method !== 'privy' &&
        verifyRecoveryProof(row.recovery_proof_key, b.recovery_proof, { appId: app.id, entropyId: row.entropy_id, nonce: device.nonce, deviceId: device.deviceId })
      if (!proven) throw device.row?.revoked_at != null ? custodyErrors.revoked() : custodyErrors.stepUpRequired()
    }
    const gate = await requireFreshMfa(ctx, auth, b.purpose ?? 'auth_share')
    c.header('cache-control', 'no-store')
    // Within SHARE_GRACE_S of a change, the replaced share too: a device that missed it still opens.
    const prev = await previousAuthShare(ctx.store, app.id, row.entropy_id)
    const previous = prev ? await svc.openAuth({ ...row, auth_share: prev }).catch(() => null) : null
    return c.json({ share: await svc.openAuth(row), mfa_enrolled: gate.mfaEnrolled, ...(previous ? { previous_share: previous } : {}) })
  })

  r.post('/wallets/recovery_share', { summary: 'The recovery share (privy: opened with the recovery key, after a step-up on this device; others: as sealed) — wallet frame device only', body: rootBody, guard: (c, b) => fromDevice(c, { entropyId: b.entropy_id, binding: 'any' }) }, async (c, { body: b, auth: device }) => {
    const auth = device.auth
    const app = c.get('app')
    const row = await rootOf(ctx.store, app.id, auth.userId, b.entropy_id)
    await requireFreshMfa(ctx, auth, 'recovery')
    if (row.recovery_method === 'privy') {
      // The server could open this share and the auth share: only a step-up the token does not
      // carry (a code to the user's e-mail or phone, fresh MFA) lets a device have it. The grant
      // registers the device and binds the session to it; the user is told.
      const ref = { appId: app.id, userId: auth.userId, sessionId: auth.sessionId, deviceId: device.deviceId, entropyId: row.entropy_id }
      const fresh = await ctx.store.transaction(async (q) => {
        if (!(await consumeStepUpGrant(q, ref))) throw custodyErrors.stepUpRequired()
        await rebindSession(q, auth.sessionId, device.deviceId)
        const added = await registerDevice(q, { appId: app.id, userId: auth.userId, deviceId: device.deviceId, jwk: device.jwk, addedBy: 'step_up', label: deviceLabel(c.req.header('user-agent')) })
        if (added) await emitEvent(q, app.id, 'wallet.recovered', { user_id: auth.userId, entropy_id: row.entropy_id, recovery_method: row.recovery_method, device: 'step_up' })
        return added
      })
      if (fresh) await notifyNewDevice(ctx, { appId: app.id, userId: auth.userId, label: deviceLabel(c.req.header('user-agent')) })
    }
    c.header('cache-control', 'no-store')
    return c.json({ recovery_method: row.recovery_method, recovery_share: await svc.openRecovery(row), recovery_meta: row.recovery_meta })
    })

  r.post('/wallets/devices/register', { summary: "Register this wallet device after a recovery: with a step-up grant or a signature by the root's index-0 key", body: registerBody, guard: (c, b) => fromDevice(c, { entropyId: b.entropy_id, binding: 'any' }) }, async (c, { body: b, auth: device }) => {
      const auth = device.auth
      const app = c.get('app')
      const root = await rootOf(ctx.store, app.id, auth.userId, b.entropy_id)
      if (device.row && device.row.revoked_at == null && device.bound) return c.json({ registered: true, device_id: device.deviceId })
      let addedBy: 'recovery' | 'step_up' = 'recovery'
      if (b.owner_signature) await svc.requireOwner(c, device, root, 'register_device', b.owner_signature, { device: device.deviceId })
      const label = deviceLabel(c.req.header('user-agent'))
      const fresh = await ctx.store.transaction(async (q) => {
        if (!b.owner_signature) {
          const ref = { appId: app.id, userId: auth.userId, sessionId: auth.sessionId, deviceId: device.deviceId, entropyId: root.entropy_id }
          if (!(await consumeStepUpGrant(q, ref))) throw custodyErrors.stepUpRequired()
          addedBy = 'step_up'
        }
        await rebindSession(q, auth.sessionId, device.deviceId)
        const added = await registerDevice(q, { appId: app.id, userId: auth.userId, deviceId: device.deviceId, jwk: device.jwk, addedBy, label })
        if (added) await emitEvent(q, app.id, 'wallet.recovered', { user_id: auth.userId, entropy_id: root.entropy_id, recovery_method: root.recovery_method, device: addedBy })
        return added
      })
      if (fresh) await notifyNewDevice(ctx, { appId: app.id, userId: auth.userId, label })
      ctx.log.info({ app_id: app.id, added_by: addedBy, fresh }, 'wallet device registered')
      return c.json({ registered: true, device_id: device.deviceId })
    })

  r.post('/wallets/set_recovery', { summary: 'Reseal the recovery share under another recovery method — a registered wallet device only', body: setRecoveryBody, guard: (c, b) => fromDevice(c, { entropyId: b.entropy_id, registered: true }) }, async (c, { body: b, auth: device }) => {
    const auth = device.auth
    const app = c.get('app')
    const existing = await rootOf(ctx.store, app.id, auth.userId, b.entropy_id)
    await requireFreshMfa(ctx, auth, 'recovery')
    await svc.requireOwner(c, device, existing, 'set_recovery', b.owner_signature, await setRecoveryFields(b))
    const sealed = await svc.sealRecovery(app.id, existing.entropy_id, b.recovery_method, b.recovery_share)
    const authShare = b.auth_share ? await svc.sealAuth(app.id, existing.entropy_id, b.auth_share) : null
    await ctx.store.transaction(async (q) => {
      const row = await rootOf(q, app.id, auth.userId, b.entropy_id, true)
      // The replaced shares are kept for SHARE_GRACE_S: a device that missed the change still opens.
      const t = now()
      await keepReplacedShares(q, row, t, t + SHARE_GRACE_S)
      await setRootRecovery(q, row, { method: b.recovery_method, share: sealed, meta: b.recovery_meta, authShare, proofKey: b.recovery_proof_key }, t)
    })
    return c.json({ user: await user(auth.userId) })
  })
  return { app: r.app, guard: svc.guard, recoveryKeys: svc.recoveryKeys }
}
