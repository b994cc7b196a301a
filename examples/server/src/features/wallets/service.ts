/**
 * The embedded wallets' rules (routes.ts declares the routes): the frame's device guard, the
 * owner signature, sealing and opening the shares, and the writes of create, import and add.
 * Every write runs in one transaction after every check; a refused request writes nothing.
 */
import { getAddress, isAddress } from 'viem'
import { base58 } from '@scure/base'
import type { WireUser } from '../../wire'
import { hitLimit } from '../../codes'
import type { C, ServerCtx } from '../../core/context'
import { errors } from '../../core/errors'
import { emitEvents, type EventInput } from '../../core/events'
import { loadUser } from '../../core/identity'
import { lockUser } from '../../core/identity/repo'
import { now } from '../../core/identity/tokens'
import { isUniqueViolation, type Queryable } from '../../core/store'
import type { Auth } from '../../core/auth'
import { deriveKeys, type Keys } from '../../keys'
import { custodyErrors, requireDevice, verifyOwnerSignature, type Device, type DeviceOptions } from './device'
import { ownerMessage, type OwnerAction } from './custody'
import { AUTH_SHARE_PURPOSE, RECOVERY_SHARE_PURPOSE, type WalletOptions } from './keys'
import { WALLET_MSG, addressTaken, alreadyExists, noFrame, notFound } from './errors'
import { embeddedWallets, hasActiveDevice, hasCreatedRoot, insertRoot, insertWalletAccount, rootOwner, selectRoot, type NewRoot, type RootRow } from './repo'

export type { RootRow }

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

interface RootFacts {
  entropy_id: string
  entropy_id_verifier: string
  recovery_method: string
  imported?: boolean
}

/** A wallet account's data: an index on an HD root (or an imported key). */
export const walletAccount = (w: { address: string; chain_type: string; wallet_index: number }, root: RootFacts) => ({
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

/** The wallet frame's device check the frame routes beside the wallets share (delegation consent, the password OPRF). */
export type WalletGuard = (c: C, entropyId?: string | null, o?: { binding?: 'bound' | 'any' }) => Promise<Auth>

export function walletService(ctx: ServerCtx, opts: WalletOptions) {
  if (!opts.recoveryKey || opts.recoveryKey.length < 32) throw new Error('registerWallets: a recovery key of at least 32 characters is required')
  const recoveryKeys: Keys = deriveKeys(opts.recoveryKey, opts.recoveryKeyPrevious)
  const frameOrigin = () => (typeof opts.frameOrigin === 'function' ? opts.frameOrigin() : opts.frameOrigin)
  const context = (appId: string, entropy: string) => `${appId}|${entropy.toLowerCase()}`

  /**
   * The wallet frame's device (device.ts: a valid token and a proof by the session's device;
   * `registered`: a device registered for the user's wallet). Origin is no credential. Shares
   * per user are rate limited.
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
    if (await hasActiveDevice(q, appId, d.auth.userId)) throw custodyErrors.stepUpRequired()
  }

  const rootOf = async (q: Queryable, appId: string, userId: string, entropy: string, lock = false) => {
    const row = await selectRoot(q, appId, userId, entropy, lock)
    if (!row) throw notFound()
    return row
  }

  const insertWallet = async (q: Queryable, appId: string, userId: string, data: ReturnType<typeof walletAccount>) => {
    try {
      await insertWalletAccount(q, appId, userId, data, now())
    } catch (e) {
      if (isUniqueViolation(e)) throw addressTaken()
      throw e
    }
  }

  const open = async (keys: Keys, row: RootRow, sealed: string, purpose: string) => {
    const plain = await keys.open(sealed, purpose)
    const prefix = `${context(row.app_id, row.entropy_id)}|`
    if (!plain.startsWith(prefix)) throw notFound()
    return plain.slice(prefix.length)
  }

  return {
    recoveryKeys,
    fromDevice,
    rootOf,
    user: async (userId: string): Promise<WireUser> => (await loadUser(ctx.store, userId))!,
    embedded: embeddedWallets,

    /** A change to the root's shares or devices needs a signature by its index-0 key over ownerMessage(). */
    async requireOwner(c: C, d: Device, root: RootRow, action: OwnerAction, signature: string | null | undefined, fields: Record<string, string | number>) {
      const message = ownerMessage({ action, appId: c.get('app').id, entropyId: root.entropy_id, nonce: d.nonce, fields })
      if (!(await verifyOwnerSignature(root, message, signature))) throw custodyErrors.ownerSignature()
    },

    /** Seals what the server keeps of a recovery share: privy's with the recovery key, the rest as given. */
    async sealRecovery(appId: string, entropy: string, method: string, share: string) {
      if (method !== 'privy') return share
      if (!/^[A-Za-z0-9+/]{1,64}={0,2}$/.test(share)) throw errors.invalidData('recovery_share: expected base64', { fields: { recovery_share: 'Expected base64' } }, 422)
      return recoveryKeys.seal(`${context(appId, entropy)}|${share}`, RECOVERY_SHARE_PURPOSE)
    },
    sealAuth: (appId: string, entropy: string, share: string) => ctx.keys.seal(`${context(appId, entropy)}|${share}`, AUTH_SHARE_PURPOSE),
    openRecovery: async (row: RootRow) => (row.recovery_method !== 'privy' ? row.recovery_share : open(recoveryKeys, row, row.recovery_share, RECOVERY_SHARE_PURPOSE)),
    openAuth: (row: RootRow) => open(ctx.keys, row, row.auth_share, AUTH_SHARE_PURPOSE),

    /**
     * Writes a new root (created or imported), its wallets and the creating device, in one
     * transaction. A created root is the user's only one; an imported key is a root of its own.
     */
    async insertNewRoot(
      device: Device,
      root: Omit<NewRoot, 'imported'> & { imported: boolean },
      wallets: { address: string; chain_type: string; wallet_index: number }[],
      register: (q: Queryable) => Promise<unknown>,
    ) {
      const { appId, userId } = root
      const facts: RootFacts = { entropy_id: root.entropyId, entropy_id_verifier: root.verifier, recovery_method: root.recoveryMethod, ...(root.imported ? { imported: true } : {}) }
      await ctx.store.transaction(async (q) => {
        // One embedded wallet per user: serialise creates of the same user on its row.
        if (!(await lockUser(q, userId))) throw errors.invalidToken()
        if (root.imported) {
          const [w] = wallets
          const same = (x: { address: string; chain_type: string }) =>
            x.chain_type === w.chain_type && (w.address.startsWith('0x') ? x.address.toLowerCase() === w.address.toLowerCase() : x.address === w.address)
          if ((await embeddedWallets(q, appId, userId)).some(same)) throw alreadyExists()
        } else {
          // Imported keys are roots of their own: they do not count as the user's created wallet.
          if ((await hasCreatedRoot(q, appId, userId)) || (await embeddedWallets(q, appId, userId)).some((w) => !w.imported)) throw alreadyExists()
        }
        await mayRegisterCreator(q, appId, device)
        try {
          await insertRoot(q, root, now())
        } catch (e) {
          if (!isUniqueViolation(e)) throw e
          if (root.imported) throw addressTaken()
          // The root's address is taken: by this user (a racing create) or by another user.
          const owner = await rootOwner(q, appId, root.entropyId)
          if (owner !== undefined && owner !== userId) throw addressTaken()
          throw alreadyExists()
        }
        for (const w of wallets) await insertWallet(q, appId, userId, walletAccount(w, facts))
        await Promise.all([register(q), emitEvents(q, appId, wallets.map((w) => walletCreated(userId, w, root.imported, root.recoveryMethod)))])
      })
    },

    /** Adds a wallet on the user's root (index rules of spec part 2 section 5). */
    async addWallet(appId: string, userId: string, entropy: string, w: { address: string; chain_type: string; wallet_index: number }) {
      await ctx.store.transaction(async (q) => {
        await lockUser(q, userId)
        const root = await rootOf(q, appId, userId, entropy)
        if (root.imported) throw errors.invalidData(WALLET_MSG.importedHasNoSiblings, undefined, 400)
        const mine = (await embeddedWallets(q, appId, userId)).filter((x) => x.chain_type === w.chain_type && (x.entropy_id ?? root.entropy_id).toLowerCase() === root.entropy_id.toLowerCase())
        if (mine.some((x) => x.wallet_index === w.wallet_index)) throw alreadyExists()
        if (w.wallet_index > 0 && !mine.some((x) => x.wallet_index === 0)) throw errors.invalidData(WALLET_MSG.needsIndexZero, undefined, 400)
        await Promise.all([
          insertWallet(q, appId, userId, walletAccount(w, root)),
          emitEvents(q, appId, [walletCreated(userId, w, !!root.imported, root.recovery_method)]),
        ])
      })
    },

    /**
     * The guard of the frame routes beside these (delegation consent, the password OPRF): a token
     * and a proof by an unrevoked device for the root named; by default the session's device
     * (binding an unbound session); `binding: 'any'` for a new device whose factor is the
     * password (the OPRF counts its guesses), as the recovery share of user-owned methods.
     */
    guard: (async (c, entropyId = null, o = {}) => {
      const d = await fromDevice(c, { entropyId, binding: o.binding })
      if (d.row?.revoked_at != null) throw custodyErrors.revoked()
      return d.auth
    }) as WalletGuard,
  }
}

/** `wallet.created` for one wallet of a new root or an added index. */
const walletCreated = (userId: string, w: { address: string; chain_type: string; wallet_index: number }, imported: boolean, recoveryMethod: string): EventInput => ({
  type: 'wallet.created',
  data: { user_id: userId, wallet: { address: w.address, chain_type: w.chain_type, wallet_index: w.wallet_index, imported, recovery_method: recoveryMethod } },
})
