/**
 * Local stand-ins for Cloudflare Turnstile and hCaptcha (tests only):
 *
 * - `widgetScript(global)`: `window.turnstile` / `window.hcaptcha` with the providers'
 *   explicit-render API (`render(container, {sitekey, callback, 'error-callback',
 *   'expired-callback'}) → id`, `reset(id)`, `remove(id)`). A site key starting with `fail`
 *   calls the error callback; `interactive` draws a checkbox the user must click; anything
 *   else passes after a task. Tokens are `pass.<sitekey>.<n>`.
 * - `startSiteverify({secret})`: the siteverify endpoint (POST form `secret`, `response`,
 *   `remoteip`, and for hCaptcha `sitekey`) answering `{success, 'error-codes'}` as the providers document: wrong secret
 *   `invalid-input-secret`, unknown token `invalid-input-response`, a token seen before
 *   `timeout-or-duplicate`.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export { widgetScript } from '../../kits/captcha/stand-in'

export interface Siteverify {
  url: string
  /** Every request; `sitekey` is what hCaptcha's documented form adds (null for Turnstile). */
  calls: { secret: string; response: string; remoteip: string | null; sitekey: string | null }[]
  close(): Promise<void>
}

export async function startSiteverify(opts: { secret: string }): Promise<Siteverify> {
  const seen = new Set<string>()
  const calls: Siteverify['calls'] = []
  const server: Server = createServer((req, res) => {
    let raw = ''
    req.on('data', (c) => (raw += c))
    req.on('end', () => {
      const form = new URLSearchParams(raw)
      const secret = form.get('secret') ?? ''
      const response = form.get('response') ?? ''
      calls.push({ secret, response, remoteip: form.get('remoteip'), sitekey: form.get('sitekey') })
      const answer = (success: boolean, codes: string[] = []) => {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ success, 'error-codes': codes, ...(success ? { challenge_ts: new Date().toISOString(), hostname: 'localhost' } : {}) }))
      }
      if (req.method !== 'POST') return answer(false, ['bad-request'])
      if (!secret) return answer(false, ['missing-input-secret'])
      if (secret !== opts.secret) return answer(false, ['invalid-input-secret'])
      if (!response) return answer(false, ['missing-input-response'])
      // Tokens of a site key containing 'refuse' are refused (the server then answers invalid_captcha).
      if (!response.startsWith('pass.') || response.includes('refuse')) return answer(false, ['invalid-input-response'])
      if (seen.has(response)) return answer(false, ['timeout-or-duplicate'])
      seen.add(response)
      answer(true)
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`,
    calls,
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}
