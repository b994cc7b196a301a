/**
 * A local stand-in for MoonPay (tests and the offline demo), following MoonPay's documented
 * requests and responses:
 *
 * - GET /?apiKey&walletAddress&currencyCode&externalTransactionId&…&signature — the buy widget.
 *   The signature is checked the way MoonPay checks it: base64(HMAC-SHA256(secret key of
 *   `apiKey`, the query string before `&signature=`)). A bad or missing signature shows
 *   'Invalid signature'. The page offers buttons that complete the purchase, leave it waiting
 *   for authorization, or fail it (plain forms: no script, so it runs under any CSP).
 * - GET /v1/transactions/ext/{externalTransactionId}?apiKey — the transactions of that id
 *   (an array, newest first), 404 `{ message: 'Transaction not found' }` before there is one,
 *   401 for an unknown publishable key.
 * - Test controls: `setStatus(id, status)`, `failStatusCalls(n)` (the next n status calls answer 500).
 * - With `deliver`, a completed purchase sends the bought amount to the wallet (../local-delivery.ts).
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { Hono } from 'hono'
import { cors } from 'hono/cors'
import { moonpayAsset, type Deliver } from '../local-delivery'

export interface MoonPayStandInOptions {
  /** Publishable key → secret key. */
  keys: Record<string, string>
  /** Delivers a completed purchase (e.g. `localDelivery(...)` of ../local-delivery: on the local chains). Default: nothing moves. */
  deliver?: Deliver
}

export interface MoonPayTransaction {
  id: string
  externalTransactionId: string
  status: string
  walletAddress: string
  currencyCode: string
  quoteCurrencyAmount: string | null
  createdAt: string
  updatedAt: string
}

/** The query string MoonPay signs: everything before `&signature=` (with its leading '?'). */
export function verifyMoonPaySignature(rawQuery: string, keys: Record<string, string>): { ok: boolean; params: URLSearchParams } {
  const q = rawQuery.startsWith('?') ? rawQuery : `?${rawQuery}`
  const at = q.lastIndexOf('&signature=')
  const params = new URLSearchParams(q)
  if (at < 0) return { ok: false, params }
  const signed = q.slice(0, at)
  const given = decodeURIComponent(q.slice(at + '&signature='.length))
  const secret = keys[new URLSearchParams(signed).get('apiKey') ?? '']
  if (!secret) return { ok: false, params }
  const want = createHmac('sha256', secret).update(signed).digest()
  const got = Buffer.from(given, 'base64')
  return { ok: got.length === want.length && timingSafeEqual(got, want), params }
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export function createMoonPayStandIn(o: MoonPayStandInOptions) {
  const transactions = new Map<string, MoonPayTransaction>()
  let failing = 0
  const app = new Hono()
  const page = (title: string, body: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title></head><body><h1>${esc(title)}</h1>${body}</body></html>`

  const setStatus = (ext: string, status: string, from?: URLSearchParams) => {
    const t = new Date().toISOString()
    const prev = transactions.get(ext)
    transactions.set(ext, {
      id: prev?.id ?? `mp_${ext.slice(0, 8)}`,
      externalTransactionId: ext,
      status,
      walletAddress: prev?.walletAddress ?? from?.get('walletAddress') ?? '',
      currencyCode: prev?.currencyCode ?? from?.get('currencyCode') ?? 'eth',
      quoteCurrencyAmount: prev?.quoteCurrencyAmount ?? from?.get('quoteCurrencyAmount') ?? null,
      createdAt: prev?.createdAt ?? t,
      updatedAt: t,
    })
  }

  // The transactions API is called from the browser with the publishable key.
  app.use('/v1/*', cors({ origin: '*' }))

  app.get('/', (c) => {
    const raw = new URL(c.req.url).search
    const { ok, params } = verifyMoonPaySignature(raw, o.keys)
    if (!ok) return c.html(page('Invalid signature', '<p>The widget URL is not signed with this API key’s secret.</p>'), 400)
    const ext = params.get('externalTransactionId') ?? ''
    const sandbox = (params.get('apiKey') ?? '').startsWith('pk_test')
    const action = (status: string, label: string) =>
      `<form method="post" action="/__stand-in/transactions"><input type="hidden" name="q" value="${esc(raw)}"><input type="hidden" name="status" value="${status}"><button type="submit">${esc(label)}</button></form>`
    return c.html(
      page(
        `Buy ${params.get('currencyCode')?.toUpperCase() ?? ''} with MoonPay${sandbox ? ' (sandbox)' : ''}`,
        `<p>To: <code>${esc(params.get('walletAddress') ?? '')}</code></p><p>Amount: ${esc(params.get('quoteCurrencyAmount') ?? '—')}</p>` +
          `<p>Transaction: <code>${esc(ext)}</code></p>` +
          action('completed', 'Complete purchase') +
          action('waitingAuthorization', 'Wait for authorization') +
          action('failed', 'Fail purchase'),
      ),
    )
  })

  app.post('/__stand-in/transactions', async (c) => {
    const form = await c.req.parseBody()
    const raw = String(form.q ?? '')
    const { ok, params } = verifyMoonPaySignature(raw, o.keys)
    const status = String(form.status ?? '')
    if (!ok || !['completed', 'waitingAuthorization', 'failed', 'pending'].includes(status)) return c.html(page('Invalid request', ''), 400)
    const ext = params.get('externalTransactionId') ?? ''
    const wasCompleted = transactions.get(ext)?.status === 'completed'
    setStatus(ext, status, params)
    // A completed purchase reaches the wallet (once) before the page says so.
    if (status === 'completed' && !wasCompleted && o.deliver) {
      const { network, asset } = moonpayAsset(params.get('currencyCode') ?? 'eth')
      await o.deliver({ address: params.get('walletAddress') ?? '', network, asset, amount: params.get('quoteCurrencyAmount') ?? '' }).catch((e) => console.error(`[moonpay] delivery failed: ${(e as Error).message}`))
    }
    return c.html(page(`Transaction ${status}`, '<p>You can close this window.</p>'))
  })

  app.get('/v1/transactions/ext/:id', (c) => {
    if (!Object.hasOwn(o.keys, c.req.query('apiKey') ?? '')) return c.json({ message: 'Invalid API key', type: 'UnauthorizedError' }, 401)
    if (failing > 0) {
      failing--
      return c.json({ message: 'Internal error' }, 500)
    }
    const t = transactions.get(c.req.param('id'))
    if (!t) return c.json({ message: 'Transaction not found', type: 'NotFoundError' }, 404)
    return c.json([t])
  })

  return {
    app,
    transactions,
    setStatus: (ext: string, status: string) => setStatus(ext, status),
    failStatusCalls: (n: number) => void (failing = n),
  }
}
