/**
 * A local stand-in for Coinbase Onramp (tests and the offline demo), following Coinbase's
 * documented requests and responses:
 *
 * - POST /onramp/v1/token { addresses [{address, blockchains}], assets? } with
 *   `Authorization: Bearer <CDP API-key JWT>` → { token, channel_id }. The JWT is verified
 *   (ES256 with the key's public JWK, `kid` and `sub` = the key name, `iss` 'cdp', `nbf`/`exp`,
 *   `uris` naming this request) — 401 otherwise.
 * - GET /buy/select-asset?appId&sessionToken&partnerUserId&… — the pay page (what
 *   @coinbase/cbpay-js's generateOnRampURL builds). Forms to complete or fail the purchase.
 * - GET /onramp/v1/buy/user/{partnerUserId}/transactions (JWT) → { transactions [{status,
 *   partner_user_ref, …}], next_page_key, total_count }; statuses
 *   ONRAMP_TRANSACTION_STATUS_IN_PROGRESS | _SUCCESS | _FAILED.
 * - With `deliver`, a successful purchase sends the bought amount to the address (../local-delivery.ts).
 */
import { randomBytes } from 'node:crypto'
import { Hono, type Context } from 'hono'
import { importJWK, jwtVerify, type JWK } from 'jose'
import type { Deliver } from '../local-delivery'

export interface CoinbaseStandInOptions {
  /** API key name → its public JWK (ES256). */
  keys: Record<string, JWK>
  projectId: string
  /** Delivers a successful purchase (e.g. `localDelivery(...)` of ../local-delivery: on the local chains). Default: nothing moves. */
  deliver?: Deliver
}

interface Session {
  addresses: { address: string; blockchains: string[] }[]
  assets: string[]
  used: boolean
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export function createCoinbaseStandIn(o: CoinbaseStandInOptions) {
  const sessions = new Map<string, Session>()
  const transactions = new Map<string, { status: string; partner_user_ref: string; created_at: string; wallet_address: string; purchase_network: string }[]>()
  const jwtCalls: { uri: string; ok: boolean }[] = []
  /** What each partner user is buying (address, network, asset, amount), for the delivery. */
  const purchases = new Map<string, { address: string; network: string; asset: string; amount: string }>()
  const app = new Hono()

  const verify = async (c: Context): Promise<boolean> => {
    const auth = c.req.header('authorization') ?? ''
    const u = new URL(c.req.url)
    const uri = `${c.req.method} ${u.host}${u.pathname}`
    let ok = false
    try {
      const token = auth.replace(/^Bearer /, '')
      const [h] = token.split('.')
      const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as { kid?: string; alg?: string; nonce?: string }
      const jwk = header.kid ? o.keys[header.kid] : undefined
      if (jwk && header.alg === 'ES256' && header.nonce) {
        const { payload } = await jwtVerify(token, await importJWK(jwk, 'ES256'), { issuer: 'cdp', subject: header.kid, requiredClaims: ['nbf', 'exp'] })
        const p = payload as { uris?: unknown; uri?: unknown; nbf: number; exp: number }
        // CDP keys sign short-lived tokens (2 minutes) for one request URI ('uris', or 'uri' in older docs).
        ok = p.exp - p.nbf <= 120 && ((Array.isArray(p.uris) && p.uris.includes(uri)) || p.uri === uri)
      }
    } catch {
      ok = false
    }
    jwtCalls.push({ uri, ok })
    return ok
  }

  app.post('/onramp/v1/token', async (c) => {
    if (!(await verify(c))) return c.json({ code: 16, message: 'Unauthenticated' }, 401)
    const b = (await c.req.json().catch(() => null)) as Partial<Session> | null
    if (!b || !Array.isArray(b.addresses) || !b.addresses.length) return c.json({ code: 3, message: 'addresses is required' }, 400)
    const token = randomBytes(24).toString('base64url')
    sessions.set(token, { addresses: b.addresses, assets: b.assets ?? [], used: false })
    return c.json({ token, channel_id: '' })
  })

  const record = (partner: string, status: string, s: Session | undefined, network: string) => {
    const list = transactions.get(partner) ?? []
    const tx = { status, partner_user_ref: partner, created_at: new Date().toISOString(), wallet_address: s?.addresses[0]?.address ?? '', purchase_network: network }
    if (list.length && list[0].status === 'ONRAMP_TRANSACTION_STATUS_IN_PROGRESS') list[0] = tx
    else list.unshift(tx)
    transactions.set(partner, list)
  }

  app.get('/buy/select-asset', (c) => {
    const q = new URL(c.req.url).searchParams
    const token = q.get('sessionToken') ?? ''
    const s = sessions.get(token)
    if (!s || s.used || q.get('appId') !== o.projectId) return c.html('<!doctype html><title>Invalid session</title><h1>Invalid or used session token</h1>', 400)
    s.used = true
    const partner = q.get('partnerUserId') ?? ''
    if (partner) record(partner, 'ONRAMP_TRANSACTION_STATUS_IN_PROGRESS', s, q.get('defaultNetwork') ?? '')
    if (partner) purchases.set(partner, { address: s.addresses[0]?.address ?? '', network: q.get('defaultNetwork') ?? '', asset: q.get('defaultAsset') ?? '', amount: q.get('presetCryptoAmount') ?? '' })
    const form = (status: string, label: string) =>
      `<form method="post" action="/__stand-in/finish"><input type="hidden" name="partnerUserId" value="${esc(partner)}"><input type="hidden" name="network" value="${esc(q.get('defaultNetwork') ?? '')}"><input type="hidden" name="status" value="${status}"><button type="submit">${esc(label)}</button></form>`
    const rows = ['defaultExperience', 'defaultPaymentMethod', 'defaultAsset', 'defaultNetwork', 'presetCryptoAmount']
      .map((k) => `<li>${k}: <code>${esc(q.get(k) ?? '')}</code></li>`)
      .join('')
    return c.html(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Coinbase Pay</title></head><body><h1>Coinbase Pay</h1>` +
        `<p>To: <code>${esc(s.addresses.map((a) => a.address).join(', '))}</code></p><ul>${rows}</ul>` +
        form('ONRAMP_TRANSACTION_STATUS_SUCCESS', 'Complete purchase') +
        form('ONRAMP_TRANSACTION_STATUS_FAILED', 'Fail purchase') +
        `</body></html>`,
    )
  })

  app.post('/__stand-in/finish', async (c) => {
    const f = await c.req.parseBody()
    const partner = String(f.partnerUserId ?? '')
    const status = String(f.status ?? '')
    if (!transactions.has(partner) || !/^ONRAMP_TRANSACTION_STATUS_(SUCCESS|FAILED)$/.test(status)) return c.html('<!doctype html><title>Invalid</title><h1>Invalid</h1>', 400)
    record(partner, status, undefined, String(f.network ?? ''))
    // A successful purchase reaches the wallet (once) before the page says so.
    const purchase = purchases.get(partner)
    if (status.endsWith('SUCCESS') && purchase && o.deliver) {
      purchases.delete(partner)
      await o.deliver(purchase).catch((e) => console.error(`[coinbase] delivery failed: ${(e as Error).message}`))
    }
    return c.html(`<!doctype html><title>Done</title><h1>${status.endsWith('SUCCESS') ? 'Purchase complete' : 'Purchase failed'}</h1><p>You can close this window.</p>`)
  })

  app.get('/onramp/v1/buy/user/:id/transactions', async (c) => {
    if (!(await verify(c))) return c.json({ code: 16, message: 'Unauthenticated' }, 401)
    const list = transactions.get(c.req.param('id')) ?? []
    const size = Math.max(1, Number(c.req.query('page_size') ?? 10))
    return c.json({ transactions: list.slice(0, size), next_page_key: '', total_count: String(list.length) })
  })

  return { app, sessions, transactions, jwtCalls }
}
