/**
 * Smart wallets (spec part 1 sections 3 and 7, part 2's sponsored gas; issue 29):
 *
 * - GET /apps/{appId}/smart_wallets → `{enabled: false}` or `{enabled: true, smart_wallet_type,
 *   smart_wallet_version?, configured_networks: [{chain_id: 'eip155:N', bundler_url,
 *   paymaster_url?, paymaster_context?}]}` from apps.json `smartWallets` (config.ts).
 * - POST /siwe/link_smart_wallet {message, signature, smart_wallet_type} (bearer): a SIWE
 *   message (nonce from /siwe/init) signed by the smart account (ERC-1271 / ERC-6492) links a
 *   `smart_wallet` account {address, smart_wallet_type, smart_wallet_version?}; one per user.
 * - POST /paymaster (bearer; the app id header): ERC-7677 JSON-RPC, `pm_getPaymasterStubData`
 *   and `pm_getPaymasterData` for EntryPoint v0.7 (sender: the caller's linked smart wallet) and
 *   v0.8 (sender: the caller's own Ethereum wallet upgraded in place by EIP-7702), signed with the app's VerifyingPaymaster key
 *   (server side only) within the app's policy: sponsored chains, the sender must be the
 *   caller's linked smart wallet, a per-user daily limit, a nonce not used yet, at most
 *   `maxCostWei` (every gas limit at maxFeePerGas) when set; the signature
 *   is valid for `validForS` (300 s by default, spec part 2). Refusals are JSON-RPC errors
 *   (HTTP 200) with `data.reason`.
 */
import { z } from 'zod'
import { ConfigError } from '../../settings'
import type { AppSettings } from '../../config'
import type { ServerCtx } from '../../core/context'
import { linkAccount } from '../../core/identity'
import { now } from '../../core/identity/tokens'
import { router } from '../../core/router'
import { id, text } from '../../core/validate'
import { smartWalletProblems, smartWalletSettings, smartWalletsWire, SMART_WALLET_TYPES, type SmartWalletSettings } from './config'
import { PaymasterRefusal, paymasterErrors, smartWalletErrors } from './errors'
import { lockUser, ownsEthereumWallet, ownsSmartWallet, recordSponsorship, sponsorshipCount } from './repo'
import { delegationTarget, entryPointNonce, maxCost, parsePaymasterParams, rpcFor, signedData, SPONSORED_7702_IMPLEMENTATIONS, stubData, verifySmartWalletLink } from './service'
import type { Address } from 'viem'

const linkBody = z.object({
  message: text(4096),
  signature: id(16_384),
  smart_wallet_type: z.enum(SMART_WALLET_TYPES, { message: `must be one of ${SMART_WALLET_TYPES.join(', ')}` }),
})

const rpcBody = z.object({
  jsonrpc: z.literal('2.0').optional(),
  id: z.union([z.number(), z.string().max(128), z.null()]).optional(),
  method: id(64),
  params: z.array(z.unknown()).max(4).default([]),
})

export function smartWalletsRoutes(ctx: ServerCtx) {
  // apps.json's smartWallets, checked once at start-up (31337 only in development mode).
  const problems = ctx.apps.all().flatMap((a) => smartWalletProblems(a, ctx.dev))
  if (problems.length) throw new ConfigError(problems)
  // Read per app object: an app changed through the admin API (apps in the database) is a new
  // object, so its settings are read again without a restart.
  const cache = new WeakMap<object, SmartWalletSettings | null>()
  const settingsOf = (app: AppSettings): SmartWalletSettings | null => {
    if (!cache.has(app)) cache.set(app, smartWalletSettings(app))
    return cache.get(app)!
  }

  const r = router(ctx)

  r.get('/apps/:appId/smart_wallets', { summary: "The app's smart-wallet configuration" }, (c) => c.json(smartWalletsWire(settingsOf(c.get('app')))))

  r.post('/siwe/link_smart_wallet', { summary: 'Link a smart wallet with a SIWE message it signed (ERC-1271 / ERC-6492)', body: linkBody, auth: 'link' }, async (c, { body: b, auth }) => {
    const app = c.get('app')
    const s = settingsOf(app)
    if (!s?.enabled) throw smartWalletErrors.disabled()
    const acct = await verifySmartWalletLink(ctx, app, s, b)
    return c.json(await linkAccount(ctx, app, auth.userId, acct))
  })

  r.post('/paymaster', { summary: 'ERC-7677 paymaster: pm_getPaymasterStubData, pm_getPaymasterData (sponsored user operations)', body: rpcBody, auth: 'bearer' }, async (c, { body: b, auth }) => {
    const app = c.get('app')
    const reply = (x: { result: unknown } | { error: unknown }) => c.json({ jsonrpc: '2.0', id: b.id ?? null, ...x })
    try {
      if (b.method !== 'pm_getPaymasterStubData' && b.method !== 'pm_getPaymasterData') throw paymasterErrors.method(b.method)
      const s = settingsOf(app)
      if (!s?.enabled) throw smartWalletErrors.disabled()
      const pm = s.paymaster
      const req = parsePaymasterParams(b.params)
      const network = s.networks.find((n) => n.chainId === req.chainId)
      const paymasterAddress = req.version === '0.8' ? network?.paymasterAddress08 : network?.paymasterAddress
      if (!pm || !pm.signerKey || !network || !paymasterAddress || !pm.policy.chains.includes(req.chainId)) throw paymasterErrors.chain(req.chainId)
      const client = rpcFor(ctx, network)
      if (!client) throw paymasterErrors.unavailable(`no RPC URL for chain ${req.chainId}`)
      // v0.7: the user's linked smart wallet; v0.8: the user's own EOA upgraded in place (EIP-7702).
      const owns = req.version === '0.8' ? ownsEthereumWallet : ownsSmartWallet
      if (!(await owns(ctx.store, app.id, auth.userId, req.userOp.sender))) throw paymasterErrors.notYours()
      if (req.version === '0.8') {
        // An EOA that delegates (or is about to) to a contract the paymaster does not know is not sponsored.
        let target: Address | null
        try {
          target = await delegationTarget(client, req.userOp.sender, req.authorizationTarget)
        } catch (err) {
          throw paymasterErrors.unavailable(`the chain did not answer (${(err as Error).name})`)
        }
        if (!target || !SPONSORED_7702_IMPLEMENTATIONS.some((a) => a.toLowerCase() === target!.toLowerCase())) throw paymasterErrors.delegation(target)
      }
      const t = now()
      const validUntil = t + pm.policy.validForS
      const key = { appId: app.id, userId: auth.userId, chainId: req.chainId, sender: req.userOp.sender, nonce: req.userOp.nonce.toString(), since: t - 86400 }
      let next: bigint
      try {
        next = await entryPointNonce(client, req.entryPoint, req.userOp.sender, req.userOp.nonce)
      } catch (err) {
        throw paymasterErrors.unavailable(`the EntryPoint did not answer (${(err as Error).name})`)
      }
      if (next > req.userOp.nonce) throw paymasterErrors.replay()
      if (b.method === 'pm_getPaymasterStubData') {
        const used = await sponsorshipCount(ctx.store, key)
        if (!used.already && used.count >= pm.policy.dailyLimitPerUser) throw paymasterErrors.dailyLimit(pm.policy.dailyLimitPerUser)
        return reply({ result: await stubData(paymasterAddress, validUntil) })
      }
      const cost = maxCost(req.userOp)
      if (pm.policy.maxCostWei !== null && cost > pm.policy.maxCostWei) throw paymasterErrors.maxCost(cost, pm.policy.maxCostWei)
      // Counted and recorded in one transaction, under the user's row lock: concurrent requests
      // cannot both take the last sponsorship of the day.
      await ctx.store.transaction(async (q) => {
        await lockUser(q, auth.userId)
        const used = await sponsorshipCount(q, key)
        if (!used.already && used.count >= pm.policy.dailyLimitPerUser) throw paymasterErrors.dailyLimit(pm.policy.dailyLimitPerUser)
        if (!(await recordSponsorship(q, { ...key, validUntil, t }))) throw paymasterErrors.notYours()
      })
      return reply({ result: await signedData(client, paymasterAddress, pm.signerKey, req.userOp, validUntil) })
    } catch (err) {
      if (err instanceof PaymasterRefusal) return reply({ error: { code: err.rpcCode, message: err.message, data: { reason: err.reason } } })
      throw err
    }
  })
  return r.app
}
