/**
 * Embedded wallets (issue 14; spec part 2 sections 3, 5, 7): the server's half of the wallet
 * frame. The frame (served from its own origin, see src/frame-server.ts) generates the key
 * material; the server keeps the public wallet records (linked accounts of type 'wallet',
 * wallet_client_type 'privy') and, per HD root, two of the three Shamir shares:
 *
 * - the auth share, sealed at rest with a key derived from PORTICO_SECRET, released only to a
 *   registered wallet device bound to the session (a device proof, src/device-proof.ts; issue
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
import { getAddress, isAddress } from 'viem'
import { base58 } from '@scure/base'
import { z } from 'zod'
import type { WireUser } from '../../wire'
import { hitLimit } from '../../codes'
import { type C, type Env, type ServerCtx } from '../../core/context'
import { ApiError, errors } from '../../core/errors'
import { loadUser } from '../../core/identity'
import { deriveKeys, type Keys } from '../../keys'
import { requireFreshMfa } from '../mfa/gate'
import { isUniqueViolation, type Queryable } from '../../core/store'
import { now } from '../../core/identity/tokens'
import { id } from '../../core/validate'
import { answerWithNonce, custodyErrors, deviceLabel, notifyNewDevice, rebindSession, registerDevice, requireDevice, verifyOwnerSignature, verifyRecoveryProof, type Device, type DeviceOptions } from '../../device-proof'
import { SHARE_GRACE_S, consumeStepUpGrant, ownerMessage, setRecoveryFields, type OwnerAction } from './custody'
import { router } from '../../core/router'
import type { Auth } from '../../core/auth'
import { AUTH_SHARE_PURPOSE, RECOVERY_SHARE_PURPOSE, WalletOptions } from './keys'
import { WALLET_MSG, addressTaken, alreadyExists, noFrame, notFound } from './errors'

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
/** `purpose`: what the frame unlocks the wallet for (an export or a delegation consent is gated as such). */
const authShareBody = rootBody.extend({
  purpose: z.enum(['export', 'delegation'], { message: "Expected 'export' or 'delegation'" }).nullish(),
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

/** Normalised address (EIP-55 / base58 32 bytes) or 422. */
export function walletAddress(type: 'ethereum' | 'solana', address: string): string {
  if (type === 'ethereum') {
    if (!isAddress(address, { strict: false })) throw errors.invalidData(WALLET_MSG.badAddress, { fields: { address: WALLET_MSG.badAddress } }, 422)
    return getAddress(address)
  }
  let ok = false
  try {
    ok = base58.decode(address).length === 32
  } catch {}
  if (!ok) throw errors.invalidData(WALLET_MSG.badAddress, { fields: { address: WALLET_MSG.badAddress } }, 422)
  return address
}

interface RootRow {
  app_id: string
  entropy_id: string
  user_id: string
  entropy_id_verifier: string
  auth_share: string
  recovery_method: string
  recovery_share: string
  recovery_meta: Record<string, unknown> | null
  imported: boolean
  recovery_proof_key: string | null
}

/** The wallet frame's device check the frame routes beside the wallets share (delegation consent, the password OPRF). */
export type WalletGuard = (c: C, entropyId?: string | null, o?: { binding?: 'bound' | 'any' }) => Promise<Auth>

export function walletsRoutes(ctx: ServerCtx, opts: WalletOptions = {}): { app: Hono<Env>; guard: WalletGuard; recoveryKeys: Keys } {
  const r = router(ctx)
  if (!opts.recoveryKey || opts.recoveryKey.length < 32) throw new Error('registerWallets: a recovery key of at least 32 characters is required')
  const recoveryKeys: Keys = deriveKeys(opts.recoveryKey, opts.recoveryKeyPrevious)
  const frameOrigin = () => (typeof opts.frameOrigin === 'function' ? opts.frameOrigin() : opts.frameOrigin)

  /**
   * The wallet frame's device (device-proof.ts: a valid token and a proof by the session's
   * device; `registered`: a device registered for the user's wallet). Origin is no credential.
   * Shares per user are rate limited.
   */
  const fromDevice = async (c: C, o: DeviceOptions) => {
    if (!frameOrigin()) throw noFrame()
    const d = await requireDevice(c, ctx, o)
    if (!(await hitLimit(ctx.store, `wallet-secrets:${d.auth.userId}`, ctx.limits.perIp * 4, ctx.limits.windowS))) throw errors.tooMany()
    return d
  }
  /**
   * Create and import register the creating device: the user's first device, or one already
   * registered. An unregistered device of a user who has a registered one steps up first (else a
   * token stolen before the frame bound its session would register a device through an import).
   */
  const mayRegisterCreator = async (q: Queryable, appId: string, d: Device) => {
    if (d.row && d.row.revoked_at == null) return
    const others = await q.query('SELECT 1 FROM wallet_devices WHERE app_id = $1 AND user_id = $2 AND revoked_at IS NULL LIMIT 1', [appId, d.auth.userId])
    if (others.length) throw custodyErrors.stepUpRequired()
  }
  /** A change to the root's shares or devices needs a signature by its index-0 key over ownerMessage(). */
  const requireOwner = async (c: C, d: Device, root: RootRow, action: OwnerAction, signature: string | null | undefined, fields: Record<string, string | number>) => {
    const message = ownerMessage({ action, appId: c.get('app').id, entropyId: root.entropy_id, nonce: d.nonce, fields })
    if (!(await verifyOwnerSignature(root, message, signature))) throw custodyErrors.ownerSignature()
  }
  const context = (appId: string, entropy: string) => `${appId}|${entropy.toLowerCase()}`

  /** Seals what the server keeps of a recovery share: privy's with the recovery key, the rest as given. */
  const sealRecovery = async (appId: string, entropy: string, method: string, share: string) => {
    if (method !== 'privy') return share
    if (!/^[A-Za-z0-9+/]{1,64}={0,2}$/.test(share)) throw errors.invalidData('recovery_share: expected base64', { fields: { recovery_share: 'Expected base64' } }, 422)
    return recoveryKeys.seal(`${context(appId, entropy)}|${share}`, RECOVERY_SHARE_PURPOSE)
  }
  const openRecovery = async (row: RootRow) => {
    if (row.recovery_method !== 'privy') return row.recovery_share
    const plain = await recoveryKeys.open(row.recovery_share, RECOVERY_SHARE_PURPOSE)
    const prefix = `${context(row.app_id, row.entropy_id)}|`
    if (!plain.startsWith(prefix)) throw notFound()
    return plain.slice(prefix.length)
  }
  const openAuth = async (row: RootRow) => {
    const plain = await ctx.keys.open(row.auth_share, AUTH_SHARE_PURPOSE)
    const prefix = `${context(row.app_id, row.entropy_id)}|`
    if (!plain.startsWith(prefix)) throw notFound()
    return plain.slice(prefix.length)
  }

  const rootOf = async (q: Queryable, appId: string, userId: string, entropy: string, lock = false) => {
    const rows = await q.query<RootRow>(
      `SELECT * FROM embedded_wallet_roots WHERE app_id = $1 AND lower(entropy_id) = lower($2) AND user_id = $3${lock ? ' FOR UPDATE' : ''}`,
      [appId, entropy, userId],
    )
    if (!rows.length) throw notFound()
    return rows[0]
  }

  const walletAccount = (
    w: { address: string; chain_type: string; wallet_index: number },
    root: { entropy_id: string; entropy_id_verifier: string; recovery_method: string; imported?: boolean },
  ) => ({
    address: w.address,
    chain_type: w.chain_type,
    chain_id: w.chain_type === 'ethereum' ? null : null,
    wallet_client: 'privy',
    wallet_client_type: 'privy',
    connector_type: 'embedded',
    imported: !!root.imported,
    delegated: false,
    recovery_method: root.recovery_method,
    wallet_index: w.wallet_index,
    entropy_id: root.entropy_id,
    entropy_id_verifier: root.entropy_id_verifier,
  })
  const insertWallet = async (q: Queryable, appId: string, userId: string, data: ReturnType<typeof walletAccount>) => {
    const t = now()
    const identifier = `${data.chain_type}:${data.chain_type === 'ethereum' ? data.address.toLowerCase() : data.address}`
    try {
      await q.query('SAVEPOINT wallet_insert')
      await q.query(
        `INSERT INTO accounts (user_id, app_id, type, identifier, data, first_verified_at, latest_verified_at, created_at)
         VALUES ($1, $2, 'wallet', $3, $4, $5, $5, $5)`,
        [userId, appId, identifier, JSON.stringify(data), t],
      )
      await q.query('RELEASE SAVEPOINT wallet_insert')
    } catch (e) {
      if (isUniqueViolation(e)) throw addressTaken()
      throw e
    }
  }
  /** The user's embedded wallets (linked accounts of type wallet with wallet_client_type 'privy'). */
  const embedded = async (q: Queryable, appId: string, userId: string) =>
    (
      await q.query<{ data: { address: string; chain_type: string; wallet_index: number; entropy_id?: string; imported?: boolean } }>(
        `SELECT data FROM accounts WHERE app_id = $1 AND user_id = $2 AND type = 'wallet' AND data->>'wallet_client_type' = 'privy'`,
        [appId, userId],
      )
    ).map((x) => x.data)
  const user = async (userId: string): Promise<WireUser> => (await loadUser(ctx.store, userId))!

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
    const recoveryShare = await sealRecovery(app.id, idWallet.address, b.recovery_method, b.recovery_share)
    const authShare = await ctx.keys.seal(`${context(app.id, idWallet.address)}|${b.auth_share}`, AUTH_SHARE_PURPOSE)
    const root = { entropy_id: idWallet.address, entropy_id_verifier: b.entropy_id_verifier, recovery_method: b.recovery_method }
    await ctx.store.transaction(async (q) => {
      // One embedded wallet per user: serialise creates of the same user on its row.
      const u = await q.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [auth.userId])
      if (!u.length) throw errors.invalidToken()
      // Imported keys are roots of their own: they do not count as the user's created wallet.
      const has = await q.query('SELECT 1 FROM embedded_wallet_roots WHERE app_id = $1 AND user_id = $2 AND NOT imported', [app.id, auth.userId])
      if (has.length || (await embedded(q, app.id, auth.userId)).some((w) => !w.imported)) throw alreadyExists()
      await mayRegisterCreator(q, app.id, device)
      const t = now()
      try {
        await q.query('SAVEPOINT root_insert')
        await q.query(
          `INSERT INTO embedded_wallet_roots (app_id, entropy_id, user_id, entropy_id_verifier, auth_share, recovery_method, recovery_share, recovery_meta, created_at, updated_at, created_session_id, recovery_proof_key)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $10, $11)`,
          [app.id, root.entropy_id, auth.userId, b.entropy_id_verifier, authShare, b.recovery_method, recoveryShare, b.recovery_meta ? JSON.stringify(b.recovery_meta) : null, t, auth.sessionId, b.recovery_proof_key ?? null],
        )
        await q.query('RELEASE SAVEPOINT root_insert')
      } catch (e) {
        if (!isUniqueViolation(e)) throw e
        // The root's address is taken: by this user (a racing create) or by another user.
        await q.query('ROLLBACK TO SAVEPOINT root_insert')
        const owner = await q.query<{ user_id: string }>('SELECT user_id FROM embedded_wallet_roots WHERE app_id = $1 AND lower(entropy_id) = lower($2)', [app.id, root.entropy_id])
        if (owner.length && owner[0].user_id !== auth.userId) throw addressTaken()
        throw alreadyExists()
      }
      for (const w of wallets) await insertWallet(q, app.id, auth.userId, walletAccount(w, root))
      await registerDevice(q, { appId: app.id, userId: auth.userId, deviceId: device.deviceId, jwk: device.jwk, addedBy: 'create', label: deviceLabel(c.req.header('user-agent')), sessionOnly: !!b.session_only })
    })
    ctx.log.info({ app_id: app.id, wallets: wallets.length, recovery_method: b.recovery_method }, 'embedded wallet created')
    return c.json({ user: await user(auth.userId), mfa_enrolled: gate.mfaEnrolled })
  })

  r.post('/wallets/add', { summary: "Add a wallet on the user's HD root (createAdditional / walletIndex) — a registered wallet device only", body: addBody, guard: (c, b) => fromDevice(c, { entropyId: b.entropy_id, registered: true }) }, async (c, { body: b, auth: device }) => {
    const auth = device.auth
    const app = c.get('app')
    const address = walletAddress(b.chain_type, b.address)
    const current = await rootOf(ctx.store, app.id, auth.userId, b.entropy_id)
    if (current.imported) throw errors.invalidData(WALLET_MSG.importedHasNoSiblings, undefined, 400)
    await requireOwner(c, device, current, 'add', b.owner_signature, {
      chain_type: b.chain_type,
      wallet_index: b.wallet_index,
      address: b.address,
    })
    await ctx.store.transaction(async (q) => {
      await q.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [auth.userId])
      const root = await rootOf(q, app.id, auth.userId, b.entropy_id)
      if (root.imported) throw errors.invalidData(WALLET_MSG.importedHasNoSiblings, undefined, 400)
      const mine = (await embedded(q, app.id, auth.userId)).filter((w) => w.chain_type === b.chain_type && (w.entropy_id ?? root.entropy_id).toLowerCase() === root.entropy_id.toLowerCase())
      if (mine.some((w) => w.wallet_index === b.wallet_index)) throw alreadyExists()
      if (b.wallet_index > 0 && !mine.some((w) => w.wallet_index === 0)) throw errors.invalidData(WALLET_MSG.needsIndexZero, undefined, 400)
      await insertWallet(q, app.id, auth.userId, walletAccount({ address, chain_type: b.chain_type, wallet_index: b.wallet_index }, root))
    })
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
    const recoveryShare = await sealRecovery(app.id, address, b.recovery_method, b.recovery_share)
    const authShare = await ctx.keys.seal(`${context(app.id, address)}|${b.auth_share}`, AUTH_SHARE_PURPOSE)
    const root = { entropy_id: address, entropy_id_verifier: b.entropy_id_verifier, recovery_method: b.recovery_method, imported: true }
    await ctx.store.transaction(async (q) => {
      const u = await q.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [auth.userId])
      if (!u.length) throw errors.invalidToken()
      const same = (w: { address: string; chain_type: string }) => w.chain_type === b.wallet.chain_type && (address.startsWith('0x') ? w.address.toLowerCase() === address.toLowerCase() : w.address === address)
      if ((await embedded(q, app.id, auth.userId)).some(same)) throw alreadyExists()
      await mayRegisterCreator(q, app.id, device)
      const t = now()
      try {
        await q.query('SAVEPOINT root_insert')
        await q.query(
          `INSERT INTO embedded_wallet_roots (app_id, entropy_id, user_id, entropy_id_verifier, auth_share, recovery_method, recovery_share, recovery_meta, created_at, updated_at, imported, created_session_id, recovery_proof_key)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, true, $10, $11)`,
          [app.id, address, auth.userId, b.entropy_id_verifier, authShare, b.recovery_method, recoveryShare, b.recovery_meta ? JSON.stringify(b.recovery_meta) : null, t, auth.sessionId, b.recovery_proof_key ?? null],
        )
        await q.query('RELEASE SAVEPOINT root_insert')
      } catch (e) {
        if (isUniqueViolation(e)) throw addressTaken()
        throw e
      }
      await insertWallet(q, app.id, auth.userId, walletAccount({ address, chain_type: b.wallet.chain_type, wallet_index: 0 }, root))
      await registerDevice(q, { appId: app.id, userId: auth.userId, deviceId: device.deviceId, jwk: device.jwk, addedBy: 'import', label: deviceLabel(c.req.header('user-agent')), sessionOnly: !!b.session_only })
    })
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
    const [prev] = await ctx.store.query<{ auth_share: string }>(
      'SELECT auth_share FROM embedded_wallet_share_history WHERE app_id = $1 AND lower(entropy_id) = lower($2) AND expires_at > $3 ORDER BY replaced_at DESC, id DESC LIMIT 1',
      [app.id, row.entropy_id, now()],
    )
    const previous = prev ? await openAuth({ ...row, auth_share: prev.auth_share }).catch(() => null) : null
    return c.json({ share: await openAuth(row), mfa_enrolled: gate.mfaEnrolled, ...(previous ? { previous_share: previous } : {}) })
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
        return registerDevice(q, { appId: app.id, userId: auth.userId, deviceId: device.deviceId, jwk: device.jwk, addedBy: 'step_up', label: deviceLabel(c.req.header('user-agent')) })
      })
      if (fresh) await notifyNewDevice(ctx, { appId: app.id, userId: auth.userId, label: deviceLabel(c.req.header('user-agent')) })
    }
    c.header('cache-control', 'no-store')
    return c.json({ recovery_method: row.recovery_method, recovery_share: await openRecovery(row), recovery_meta: row.recovery_meta })
    })

  r.post('/wallets/devices/register', { summary: "Register this wallet device after a recovery: with a step-up grant or a signature by the root's index-0 key", body: registerBody, guard: (c, b) => fromDevice(c, { entropyId: b.entropy_id, binding: 'any' }) }, async (c, { body: b, auth: device }) => {
      const auth = device.auth
      const app = c.get('app')
      const root = await rootOf(ctx.store, app.id, auth.userId, b.entropy_id)
      if (device.row && device.row.revoked_at == null && device.bound) return c.json({ registered: true, device_id: device.deviceId })
      let addedBy: 'recovery' | 'step_up' = 'recovery'
      if (b.owner_signature) await requireOwner(c, device, root, 'register_device', b.owner_signature, { device: device.deviceId })
      const label = deviceLabel(c.req.header('user-agent'))
      const fresh = await ctx.store.transaction(async (q) => {
        if (!b.owner_signature) {
          const ref = { appId: app.id, userId: auth.userId, sessionId: auth.sessionId, deviceId: device.deviceId, entropyId: root.entropy_id }
          if (!(await consumeStepUpGrant(q, ref))) throw custodyErrors.stepUpRequired()
          addedBy = 'step_up'
        }
        await rebindSession(q, auth.sessionId, device.deviceId)
        return registerDevice(q, { appId: app.id, userId: auth.userId, deviceId: device.deviceId, jwk: device.jwk, addedBy, label })
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
    await requireOwner(c, device, existing, 'set_recovery', b.owner_signature, await setRecoveryFields(b))
    const sealed = await sealRecovery(app.id, existing.entropy_id, b.recovery_method, b.recovery_share)
    const authShare = b.auth_share ? await ctx.keys.seal(`${context(app.id, existing.entropy_id)}|${b.auth_share}`, AUTH_SHARE_PURPOSE) : null
    await ctx.store.transaction(async (q) => {
      const row = await rootOf(q, app.id, auth.userId, b.entropy_id, true)
      // The replaced shares are kept for SHARE_GRACE_S: a device that missed the change still opens.
      const t = now()
      await q.query(
        `INSERT INTO embedded_wallet_share_history (app_id, entropy_id, user_id, auth_share, recovery_method, recovery_share, recovery_meta, recovery_proof_key, replaced_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [app.id, row.entropy_id, auth.userId, row.auth_share, row.recovery_method, row.recovery_share, row.recovery_meta ? JSON.stringify(row.recovery_meta) : null, row.recovery_proof_key, t, t + SHARE_GRACE_S],
      )
      await q.query(
        'UPDATE embedded_wallet_roots SET recovery_method = $3, recovery_share = $4, recovery_meta = $5, updated_at = $6, auth_share = COALESCE($7, auth_share), recovery_proof_key = $8 WHERE app_id = $1 AND entropy_id = $2',
        [app.id, row.entropy_id, b.recovery_method, sealed, b.recovery_meta ? JSON.stringify(b.recovery_meta) : null, t, authShare, b.recovery_proof_key ?? null],
      )
      await q.query(
        `UPDATE accounts SET data = jsonb_set(data, '{recovery_method}', to_jsonb($4::text))
         WHERE app_id = $1 AND user_id = $2 AND type = 'wallet' AND lower(data->>'entropy_id') = lower($3)`,
        [app.id, auth.userId, row.entropy_id, b.recovery_method],
      )
    })
    return c.json({ user: await user(auth.userId) })
  })
  /**
   * The guard of the frame routes beside these (delegation consent, the password OPRF): a token
   * and a proof by an unrevoked device for the root named; by default the session's device
   * (binding an unbound session); `binding: 'any'` for a new device whose factor is the
   * password (the OPRF counts its guesses), as the recovery share of user-owned methods.
   */
  const guard = async (c: C, entropyId: string | null = null, o: { binding?: 'bound' | 'any' } = {}) => {
    const d = await fromDevice(c, { entropyId, binding: o.binding })
    if (d.row?.revoked_at != null) throw custodyErrors.revoked()
    return d.auth
  }
  return { app: r.app, guard, recoveryKeys }
}
