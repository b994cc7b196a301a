/**
 * Delegated actions ('Enable offline access', spec part 2 sections 2, 4, 5, 6 and 7): while the
 * user allows it, the host app's own BACKEND can have this server sign with one of the user's
 * embedded wallets, without the user being there. It is the one mode in which the server can
 * act without the user, and it lasts exactly as long as the delegation:
 *
 * - GET  /wallets/delegation_key → { jwk }: the server's public key (P-256, ECDH-ES) the wallet
 *   frame seals a wallet key to. Its private half is derived from PORTICO_SECRET (never stored).
 * - POST /wallets/delegate (bearer, called by the consent page on the wallet frame's origin
 *   after the user clicked Allow there; through the wallet routes' frame guard)
 *   { address, chain_type, sealed_key }: `sealed_key` is a compact JWE (ECDH-ES + A256GCM) of
 *   `{ address, chain_type, private_key, policy }` for THAT wallet only (its HD child key, not
 *   the seed phrase) and the policy the user saw. The server opens it, checks that the key is
 *   the wallet's (the address it derives must equal the account's, so nobody can delegate a key
 *   they do not hold), and in one transaction stores the consent with the sealed key and the
 *   policy and sets `delegated` on the account. Gated by `requireFreshMfa(…, 'delegation')`.
 * - POST /wallets/revoke {} (bearer): needs at least one delegated wallet; deletes every sealed
 *   key of the user and clears `delegated` in one transaction.
 * - POST /wallets/{address}/rpc (the host app's backend: `Authorization: Basic
 *   base64(appId:appSecret)` and `privy-app-id`; never from a browser): personal_sign,
 *   eth_signTypedData_v4, eth_signTransaction (Ethereum), signMessage and signTransaction
 *   (Solana: the base64 wire transaction gets the wallet's signature) for a
 *   delegated wallet of one of the app's users. A revoked, expired or never delegated wallet is
 *   refused; every request is checked against the SEALED policy before signing (method, chain
 *   id — required on every transaction —, destination, value per transaction and per rolling
 *   day) and written to `wallet_delegation_audit`, allowed or refused with the reason.
 * - POST /wallets/delegations/revoke { address, chain_type? } (the app's backend, app secret):
 *   the app ends a delegation (the sealed key is deleted as by the user's revoke).
 * - GET /wallets/delegations/audit: the user's audit (bearer) with their live delegations and
 *   policies, or the app's (app secret; `?user_id=`, `?address=`); newest first, `?limit` ≤ 200.
 *
 * The app secret is the app's `appSecret` (inline, tests and demos) or `appSecretEnv` (the
 * environment variable holding it) in apps.json; at least 32 characters.
 */
import { createHash } from 'node:crypto'
import { base64 } from '@scure/base'
import { z } from 'zod'
import { clientIp, type C, type ServerCtx } from '../../core/context'
import { normalizePolicy } from '../../wire/frame'
import { ApiError, errors } from '../../core/errors'
import { emitEvent, emitEvents, type EventInput } from '../../core/events'
import { loadUser, userResponse } from '../../core/identity'
import { requireFreshMfa } from '../mfa/gate'
import type { Queryable } from '../../core/store'
import { now } from '../../core/identity/tokens'
import { id } from '../../core/validate'
import { router } from '../../core/router'
import { requireAppSecret, requireAuth } from '../../core/auth'
import type { Auth } from '../../core/auth'
import { type ChainType, addressKey, type SealingKey, sealingKey, openSealed, findWallet, METHOD_CHAIN, sign, type RequestFacts, requestFacts, checkPolicy, DAY_S, canonical } from './service'
import {
  audit,
  delegatedAt,
  delegationsAt,
  deleteDelegation,
  deleteUserDelegations,
  embeddedWallets,
  embeddedWalletOwner,
  putDelegation,
  readAudit,
  signableDelegation,
  touchDelegation,
  userDelegations,
  valueSince,
} from './repo'
import { PolicyRefusal, DELEGATION_MSG, notDelegated } from './errors'


// ------------------------------------------------------------------ the sealing key

// ------------------------------------------------------------------ embedded wallet accounts

// ------------------------------------------------------------------ signing

// ------------------------------------------------------------------ the policy

// ------------------------------------------------------------------ routes

export interface DelegationOptions {
  /**
   * The wallet routes' guard (features/wallets/routes.ts: a token and a device proof by the
   * session's device): consent goes through it too.
   */
  guard: (c: C) => Promise<Auth>
}

export function delegationRoutes(ctx: ServerCtx, opts: DelegationOptions) {
  const r = router(ctx)
  let key: Promise<SealingKey> | undefined
  const sk = () => (key ??= sealingKey(ctx))

  r.get('/wallets/delegation_key', { summary: 'The public key the wallet frame seals a delegated wallet key to' }, async (c) =>
    c.json({ jwk: (await sk()).publicJwk }))

  r.post('/wallets/delegate', { summary: 'Delegate one embedded wallet to the app (consent, from the consent page on the wallet frame’s origin)', body: z.object({
      address: id(128),
      chain_type: z.enum(['ethereum', 'solana'], { message: DELEGATION_MSG.chainTypes }),
      sealed_key: z.string().min(1, 'Required').max(8192, 'Must be at most 8192 characters').regex(/^[A-Za-z0-9_.-]+$/, 'Expected a compact JWE'),
    }), guard: (c) => opts.guard(c) }, async (c, { body: b, auth }) => {
      const app = c.get('app')
      await requireFreshMfa(ctx, auth, 'delegation')
      findWallet(await embeddedWallets(ctx.store, auth.userId), b.chain_type, b.address)
      const opened = await openSealed(await sk(), b.sealed_key, b.chain_type, b.address)
      opened.key.fill(0)
      const t = now()
      const user = await ctx.store.transaction(async (q) => {
        const w = findWallet(await embeddedWallets(q, auth.userId, true), b.chain_type, b.address)
        await putDelegation(q, {
          appId: app.id,
          chain: w.chain_type,
          addressKey: addressKey(w.chain_type, w.address),
          userId: auth.userId,
          address: w.address,
          walletIndex: w.wallet_index,
          sealedKey: b.sealed_key,
          sessionId: auth.sessionId,
          t,
          policy: opened.policy,
          expiresAt: t + opened.policy.expires_in,
          accountId: w.id,
        })
        await emitEvent(q, app.id, 'delegation.granted', { user_id: auth.userId, wallet: { address: w.address, chain_type: w.chain_type }, expires_at: t + opened.policy.expires_in })
        return (await loadUser(q, auth.userId))!
      })
      ctx.log.info({ req_id: c.get('requestId'), app_id: app.id, chain_type: b.chain_type }, 'wallet delegated')
      return c.json(await userResponse(ctx, app.id, user))
    })

  r.post('/wallets/revoke', { summary: 'Revoke every delegated wallet of the user', auth: 'bearer' }, async (c, { auth }) => {
    const app = c.get('app')
    const user = await ctx.store.transaction(async (q) => {
      const delegated = (await embeddedWallets(q, auth.userId, true)).filter((w) => w.delegated)
      if (!delegated.length) throw errors.invalidData(DELEGATION_MSG.nothingToRevoke)
      await deleteUserDelegations(q, app.id, auth.userId, delegated.map((w) => w.id))
      await emitEvents(q, app.id, delegated.map((w) => revoked(auth.userId, w.address, w.chain_type, 'user')))
      return (await loadUser(q, auth.userId))!
    })
    ctx.log.info({ req_id: c.get('requestId'), app_id: app.id }, 'delegated wallets revoked')
    return c.json(await userResponse(ctx, app.id, user))
  })

  /** Ends one delegation (the sealed key is deleted and the account's flag cleared, one transaction). */
  const endDelegation = (q: Queryable, appId: string, chain: ChainType, address: string, userId: string, reason: 'app' | 'expired') =>
    Promise.all([
      deleteDelegation(q, { appId, chain, addressKey: addressKey(chain, address), address, userId }),
      emitEvents(q, appId, [revoked(userId, address, chain, reason)]),
    ])

  r.post('/wallets/delegations/revoke', { summary: "The app ends a delegation (the app's backend, Basic app id and app secret)", body: z.object({ address: id(128), chain_type: z.enum(['ethereum', 'solana'], { message: DELEGATION_MSG.chainTypes }).optional() }), auth: 'app-secret' }, async (c, { body: b, auth: app }) => {
      const rows = await delegationsAt(ctx.store, app.id, [b.address, b.address.toLowerCase()], b.chain_type)
      const row = rows.find((x) => addressKey(x.chain_type, x.address) === addressKey(x.chain_type, b.address))
      if (!row) throw notDelegated()
      await ctx.store.transaction((q) => endDelegation(q, app.id, row.chain_type, row.address, row.user_id, 'app'))
      ctx.log.info({ req_id: c.get('requestId'), app_id: app.id, chain_type: row.chain_type }, 'delegation revoked by the app')
      return c.json({ revoked: true, address: row.address, chain_type: row.chain_type })
    })

  // The app's backend (Basic) or the user (bearer): the credential the request carries decides.
  const userOrApp = async (c: C): Promise<{ app: true } | Auth> =>
    /^basic\s/i.test(c.req.header('authorization') ?? '') ? (await requireAppSecret(c, ctx), { app: true }) : requireAuth(c, ctx)
  r.get('/wallets/delegations/audit', { summary: 'Delegated signatures: the user’s (bearer) or the app’s (app secret)', guard: userOrApp, query: { limit: 'At most this many entries (1-200, default 50)', user_id: 'The app: one user’s entries', address: 'The app: one wallet’s entries' } }, async (c, { auth }) => {
    const app = c.get('app')
    const lim = Number(c.req.query('limit') ?? 50)
    const limit = Number.isInteger(lim) && lim > 0 ? Math.min(lim, 200) : 50
    if ('app' in auth) {
      const userId = c.req.query('user_id')
      const address = c.req.query('address')
      const entries = await readAudit(ctx.store, app.id, { userId: userId && userId.length <= 128 ? userId : undefined, address: address && address.length <= 128 ? address : undefined }, limit)
      return c.json({ entries })
    }
    const live = await userDelegations(ctx.store, app.id, auth.userId)
    const delegations = live.map((d) => ({
      chain_type: d.chain_type,
      address: d.address,
      policy: d.policy ?? normalizePolicy(d.chain_type as ChainType, null),
      created_at: Number(d.created_at),
      expires_at: d.expires_at === null ? null : Number(d.expires_at),
      last_used_at: d.last_used_at === null ? null : Number(d.last_used_at),
    }))
    return c.json({ delegations, entries: await readAudit(ctx.store, app.id, { userId: auth.userId }, limit) })
  })

  r.post('/wallets/:address/rpc', { summary: "Sign with a delegated wallet (the app's backend, Basic app id and app secret)", body: z.object({
      method: z.enum(['personal_sign', 'eth_signTypedData_v4', 'eth_signTransaction', 'signMessage', 'signTransaction'], {
        message: "Expected 'personal_sign', 'eth_signTypedData_v4', 'eth_signTransaction', 'signMessage' or 'signTransaction'",
      }),
      params: z.record(z.string(), z.unknown()).default({}),
      chain_type: z.enum(['ethereum', 'solana'], { message: DELEGATION_MSG.chainTypes }).optional(),
    }), auth: 'app-secret' }, async (c, { body: b, auth: app }) => {
      const chain = METHOD_CHAIN[b.method]
      if (b.chain_type && b.chain_type !== chain) throw errors.invalidData(DELEGATION_MSG.wrongChain(b.method, b.chain_type))
      const address = c.req.param('address') ?? ''
      if (address.length > 128) throw errors.invalidData(DELEGATION_MSG.notDelegated, undefined, 404)
      const ip = clientIp(c, ctx.trustProxy)
      const payloadSha256 = createHash('sha256').update(canonical({ method: b.method, params: b.params })).digest('hex')
      const lookup = (q: Queryable, lock: boolean) => signableDelegation(q, app.id, chain, addressKey(chain, address), lock)
      const row = await lookup(ctx.store, false)
      if (!row) {
        // Another chain's wallet at this address reads as not delegated too, but says why.
        if (await delegatedAt(ctx.store, app.id, addressKey(chain === 'ethereum' ? 'solana' : 'ethereum', address))) throw errors.invalidData(DELEGATION_MSG.wrongChain(b.method, chain === 'ethereum' ? 'solana' : 'ethereum'))
        // An embedded wallet of one of the app's users (revoked, or never delegated): the attempt is audited for its owner.
        const owner = await embeddedWalletOwner(ctx.store, app.id, `${chain}:${addressKey(chain, address)}`)
        if (owner) await audit(ctx.store, { appId: app.id, userId: owner.user_id, chain, address: owner.address, method: b.method, payloadSha256, facts: null, ip, allowed: false, reason: 'not_delegated' })
        throw notDelegated()
      }
      const base = { appId: app.id, userId: row.user_id, chain, address: row.address, method: b.method, payloadSha256, ip }
      let facts: RequestFacts | null = null
      try {
        if (row.expires_at !== null && now() >= Number(row.expires_at)) {
          // Expired: the sealed key goes, as with a revoke.
          await ctx.store.transaction((q) => endDelegation(q, app.id, chain, row.address, row.user_id, 'expired'))
          throw new PolicyRefusal('expired', DELEGATION_MSG.expired)
        }
        facts = await requestFacts(b.method, b.params, row.address)
        const { key, policy } = await openSealed(await sk(), row.sealed_key, chain, row.address)
        try {
          checkPolicy(policy, b.method, facts)
          const f = facts
          const data = await ctx.store.transaction(async (q) => {
            // The row lock serialises this wallet's signatures: the day's sum cannot be raced.
            if (!(await lookup(q, true))) throw notDelegated()
            if (f.value > 0n) {
              const total = await valueSince(q, app.id, chain, row.address, now() - DAY_S)
              if (BigInt(total.split('.')[0]) + f.value > BigInt(policy.max_value_per_day)) throw new PolicyRefusal('value_over_day_cap', DELEGATION_MSG.overDayCap)
            }
            const signed = await sign(b.method, b.params, key)
            await audit(q, { ...base, facts: f, allowed: true, reason: null })
            await touchDelegation(q, app.id, chain, addressKey(chain, address), now())
            return signed
          })
          ctx.log.info({ req_id: c.get('requestId'), app_id: app.id, method: b.method }, 'delegated signature')
          return c.json({ method: b.method, data })
        } finally {
          key.fill(0)
        }
      } catch (err) {
        if (err instanceof ApiError && err.status < 500) {
          const reason = err instanceof PolicyRefusal ? err.reason : err.code === 'wallet_not_delegated' ? 'not_delegated' : 'invalid_request'
          await audit(ctx.store, { ...base, facts, allowed: false, reason })
          ctx.log.info({ req_id: c.get('requestId'), app_id: app.id, method: b.method, reason }, 'delegated signature refused')
        }
        throw err
      }
    })
  return r.app
}

/** `delegation.revoked` for one wallet. */
const revoked = (userId: string, address: string, chainType: string, reason: 'user' | 'app' | 'expired'): EventInput => ({
  type: 'delegation.revoked',
  data: { user_id: userId, wallet: { address, chain_type: chainType }, reason },
})
