/**
 * Funding (spec part 2, section 7 'Other provider calls' and 'Funding provider calls'). The
 * providers' secrets stay here; the browser gets signed URLs and session tokens only.
 *
 * - POST /plugins/moonpay_on_ramp/sign { address, useSandbox?, config { uiConfig {accentColor,
 *   theme}, paymentMethod, currencyCode, quoteCurrencyAmount } } → { signedUrl,
 *   externalTransactionId }: the MoonPay widget URL with the app's publishable key, signed as
 *   MoonPay documents (HMAC-SHA256 of the URL's query string with the secret key, base64,
 *   appended as `signature`). The sandbox flag picks the sandbox keys and widget host.
 * - POST /funding/coinbase_on_ramp/init { addresses [{address, blockchains}], assets? } →
 *   { app_id, session_token, partner_user_id }: Coinbase's session-token API
 *   (POST {api}/onramp/v1/token) authorised with a CDP API-key JWT (ES256, jose).
 * - GET /funding/coinbase_on_ramp/status?partnerUserId → { status: 'success' | 'failure' |
 *   'pending' }: Coinbase's transaction-status API for that partner user id. The id is bound
 *   to the user (a keyed hash of the user id prefixes it), so nobody reads another user's.
 *
 * All need a logged-in user. A provider that cannot be reached answers 424
 * funding_provider_unavailable (the provider failed, not the server); nothing secret is logged.
 */
import { createHmac, createPrivateKey, randomBytes, randomUUID } from 'node:crypto'
import { SignJWT } from 'jose'
import { z } from 'zod'
import { hitLimit } from '../../codes'
import { type C, type ServerCtx } from '../../core/context'
import { errors } from '../../core/errors'
import { DEV_FUNDING, PROVIDER_URLS, fundingOf, type FundingSettings } from '../../funding-config'
import { router } from '../../core/router'
import { notConfigured, notEnabled, unavailable } from './errors'

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/
const SOLANA_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/
/** Coinbase asset ids and network names; MoonPay currency codes ('eth', 'usdc_base', 'sol'). */
const COINBASE_ASSET = /^[A-Z0-9]{1,12}$/
const COINBASE_NETWORK = /^[a-z0-9-]{1,32}$/
// MoonPay's currency codes; the published client sends them in capitals (ETH_ETHEREUM): read case-blind.
const MOONPAY_CODE = /^[a-z0-9_]{1,32}$/i
const PARTNER_ID = /^[A-Za-z0-9_-]{20,49}$/
const PROVIDER_TIMEOUT_MS = 10_000

export const isEvmAddress = (a: string) => EVM_ADDRESS.test(a)
export const isSolanaAddress = (a: string) => SOLANA_ADDRESS.test(a)

/** MoonPay's documented URL signing: base64(HMAC-SHA256(secret, url.search)), appended as `signature`. */
export function signMoonPayUrl(url: string, secretKey: string): string {
  const u = new URL(url)
  const signature = createHmac('sha256', secretKey).update(u.search).digest('base64')
  u.searchParams.append('signature', signature)
  return u.toString()
}

/** The CDP API-key JWT Coinbase's REST APIs take (`Authorization: Bearer`): ES256, 120 s, one request URI. */
export async function coinbaseJwt(keyName: string, keySecretPem: string, method: string, url: string): Promise<string> {
  const u = new URL(url)
  const t = Math.floor(Date.now() / 1000)
  return new SignJWT({ sub: keyName, iss: 'cdp', uris: [`${method} ${u.host}${u.pathname}`] })
    .setProtectedHeader({ alg: 'ES256', kid: keyName, typ: 'JWT', nonce: randomBytes(16).toString('hex') })
    .setNotBefore(t)
    .setExpirationTime(t + 120)
    .sign(createPrivateKey(keySecretPem))
}

function secret(ctx: ServerCtx, env: string | undefined, dev: string, what: string): string {
  const v = env ? process.env[env] : undefined
  if (v) return v
  if (ctx.dev) return dev
  throw notConfigured(what)
}

const sign = z.object({
  address: z.string().max(128),
  useSandbox: z.boolean().nullish(),
  config: z
    .object({
      uiConfig: z.object({ accentColor: z.string().regex(/^#[0-9a-fA-F]{3,8}$/).nullish(), theme: z.enum(['light', 'dark']).nullish() }).nullish(),
      paymentMethod: z.string().regex(/^[a-z_]{1,64}$/).nullish(),
      currencyCode: z.string().regex(MOONPAY_CODE).nullish(),
      quoteCurrencyAmount: z.union([z.number().positive().max(1e12), z.string().regex(/^\d{1,12}(\.\d{1,18})?$/)]).nullish(),
    })
    .nullish(),
})

const init = z.object({
  addresses: z
    .array(z.object({ address: z.string().max(128), blockchains: z.array(z.string().regex(COINBASE_NETWORK)).min(1).max(10) }))
    .min(1)
    .max(5),
  assets: z.array(z.string().regex(COINBASE_ASSET)).max(10).nullish(),
})

export function fundingRoutes(ctx: ServerCtx) {
  const r = router(ctx)
  const funding = (c: C): FundingSettings => {
    const f = fundingOf(c.get('app'))
    if (!f) throw notEnabled()
    return f
  }
  const limited = async (userId: string) => {
    if (!(await hitLimit(ctx.store, `funding:${userId}`, ctx.limits.perIp, ctx.limits.windowS))) throw errors.tooMany()
  }
  // A partner user id names the user without revealing the id: keyed hash prefix + a flow nonce.
  const partnerPrefix = (appId: string, userId: string) =>
    ctx.keys.codeHash(['coinbase-partner-user', appId, userId]).slice(0, 24)

  r.post('/plugins/moonpay_on_ramp/sign', { summary: 'MoonPay: sign the widget URL', body: sign, auth: 'bearer' }, async (c, { body: b, auth }) => {
    const f = funding(c)
    const m = f.moonpay
    if (!m) throw notEnabled()
    const code = (b.config?.currencyCode ?? 'eth').toLowerCase()
    const solana = code === 'sol' || code.endsWith('_sol')
    if (solana ? !isSolanaAddress(b.address) : !isEvmAddress(b.address)) {
      throw errors.invalidData(`address: not a valid ${solana ? 'Solana' : 'Ethereum'} address`, { fields: { address: 'Invalid address' } })
    }
    await limited(auth.userId)
    const sandbox = b.useSandbox ?? m.useSandbox
    const key = sandbox ? (m.sandboxApiKey ?? DEV_FUNDING.moonpay.sandboxApiKey) : (m.apiKey ?? DEV_FUNDING.moonpay.apiKey)
    const secretKey = sandbox
      ? secret(ctx, m.sandboxSecretKeyEnv, DEV_FUNDING.moonpay.sandboxSecretKey, 'The MoonPay sandbox secret key')
      : secret(ctx, m.secretKeyEnv, DEV_FUNDING.moonpay.secretKey, 'The MoonPay secret key')
    const base = sandbox ? (m.sandboxWidgetUrl ?? PROVIDER_URLS.moonpaySandboxWidget) : (m.widgetUrl ?? PROVIDER_URLS.moonpayWidget)
    const externalTransactionId = randomUUID()
    const u = new URL(base)
    const q = u.searchParams
    q.set('apiKey', key)
    q.set('walletAddress', b.address)
    q.set('currencyCode', code)
    if (b.config?.quoteCurrencyAmount != null) q.set('quoteCurrencyAmount', String(b.config.quoteCurrencyAmount))
    const paymentMethod = b.config?.paymentMethod ?? m.paymentMethod
    if (paymentMethod) q.set('paymentMethod', paymentMethod)
    if (b.config?.uiConfig?.accentColor) q.set('colorCode', b.config.uiConfig.accentColor)
    if (b.config?.uiConfig?.theme) q.set('theme', b.config.uiConfig.theme)
    q.set('externalTransactionId', externalTransactionId)
    return c.json({ signedUrl: signMoonPayUrl(u.toString(), secretKey), externalTransactionId })
  })

  r.post('/funding/coinbase_on_ramp/init', { summary: 'Coinbase Onramp: session token', body: init, auth: 'bearer' }, async (c, { body: b, auth }) => {
    const f = funding(c)
    const cb = f.coinbase
    if (!cb) throw notEnabled()
    for (const a of b.addresses) {
      const solana = a.blockchains.includes('solana')
      if (solana && a.blockchains.length > 1) throw errors.invalidData('addresses: a Solana address takes only the solana blockchain')
      if (solana ? !isSolanaAddress(a.address) : !isEvmAddress(a.address)) {
        throw errors.invalidData(`addresses: not a valid ${solana ? 'Solana' : 'Ethereum'} address`, { fields: { addresses: 'Invalid address' } })
      }
    }
    await limited(auth.userId)
    const keyName = cb.apiKeyName ?? DEV_FUNDING.coinbase.apiKeyName
    const keySecret = secret(ctx, cb.apiKeySecretEnv, DEV_FUNDING.coinbase.apiKeySecret, 'The Coinbase API key')
    const tokenUrl = `${(cb.apiUrl ?? PROVIDER_URLS.coinbaseApi).replace(/\/$/, '')}/onramp/v1/token`
    let token: string | undefined
    try {
      const res = await fetch(tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${await coinbaseJwt(keyName, keySecret, 'POST', tokenUrl)}` },
        body: JSON.stringify({ addresses: b.addresses, ...(b.assets?.length ? { assets: b.assets } : {}) }),
        signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
      })
      const json = (await res.json().catch(() => null)) as { token?: unknown; data?: { token?: unknown } } | null
      const t = json?.token ?? json?.data?.token
      if (res.ok && typeof t === 'string') token = t
      else ctx.log.warn({ app_id: c.get('app').id, status: res.status }, 'coinbase session token refused')
    } catch (e) {
      ctx.log.warn({ app_id: c.get('app').id, err: (e as Error).name }, 'coinbase session token call failed')
    }
    if (!token) throw unavailable('Coinbase')
    const partnerUserId = `${partnerPrefix(c.get('app').id, auth.userId)}${Date.now().toString(36)}`
    return c.json({ app_id: cb.projectId ?? DEV_FUNDING.coinbase.projectId, session_token: token, partner_user_id: partnerUserId })
  })

  r.get('/funding/coinbase_on_ramp/status', { summary: 'Coinbase Onramp: status (?partnerUserId)', auth: 'bearer', query: { partnerUserId: 'The partner user id the session was started with' } }, async (c, { auth }) => {
    const f = funding(c)
    const cb = f.coinbase
    if (!cb) throw notEnabled()
    const id = c.req.query('partnerUserId') ?? ''
    if (!PARTNER_ID.test(id)) throw errors.invalidData('partnerUserId: Required')
    if (!id.startsWith(partnerPrefix(c.get('app').id, auth.userId))) throw errors.notFound()
    const keyName = cb.apiKeyName ?? DEV_FUNDING.coinbase.apiKeyName
    const keySecret = secret(ctx, cb.apiKeySecretEnv, DEV_FUNDING.coinbase.apiKeySecret, 'The Coinbase API key')
    const statusUrl = `${(cb.apiUrl ?? PROVIDER_URLS.coinbaseApi).replace(/\/$/, '')}/onramp/v1/buy/user/${encodeURIComponent(id)}/transactions`
    let list: { status?: string }[] | null = null
    try {
      const res = await fetch(`${statusUrl}?page_size=1`, {
        headers: { authorization: `Bearer ${await coinbaseJwt(keyName, keySecret, 'GET', statusUrl)}` },
        signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
      })
      const json = (await res.json().catch(() => null)) as { transactions?: { status?: string }[] } | null
      if (res.ok && Array.isArray(json?.transactions)) list = json.transactions
      else ctx.log.warn({ app_id: c.get('app').id, status: res.status }, 'coinbase status refused')
    } catch (e) {
      ctx.log.warn({ app_id: c.get('app').id, err: (e as Error).name }, 'coinbase status call failed')
    }
    if (!list) throw unavailable('Coinbase')
    const s = list[0]?.status ?? ''
    const status = s === 'ONRAMP_TRANSACTION_STATUS_SUCCESS' ? 'success' : s === 'ONRAMP_TRANSACTION_STATUS_FAILED' ? 'failure' : 'pending'
    return c.json({ status })
  })
  return r.app
}
