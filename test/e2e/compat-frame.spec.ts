/**
 * Wire compatibility, the wallet frame (issue 31): a host page written for the published client
 * of this contract (`@privy-io/js-sdk-core`, the pinned devDependency, bundled with esbuild;
 * ./compat-frame/host.ts) runs in Chromium under a strict CSP against the reference server,
 * changed only in its base URL. The client loads the frame where it expects it — the API's own
 * origin, `/apps/{appId}/embedded-wallets` — and speaks its own envelope (a JSON string
 * `{id, event, data}`), which the frame answers through the same handlers, origin and source
 * check and device proof as its own protocol.
 *
 * Through the client: an e-mail user creates an embedded Ethereum wallet and signs
 * (personal_sign, checked with viem), adds a Solana wallet on the same root and signs (ed25519),
 * enrols TOTP MFA and verifies it (a wrong code first: the client asks again); then, on a fresh
 * browser profile, the wallet recovers (the new device's step-up is the MFA verification the
 * client prompts for) and signs the same address. A second user without MFA recovers on a fresh
 * profile with the step-up code sent to their e-mail, answered through the client's MFA prompt.
 * A third creates the wallet with a recovery password and recovers it with that password.
 */
import { createServer as createHttpServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { build } from 'esbuild'
import { serve } from '@hono/node-server'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { parseTransaction, recoverTransactionAddress, verifyMessage, verifyTypedData, type Hex } from 'viem'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64 } from '@scure/base'
import * as OTPAuth from 'otpauth'
import { createServer } from '../../examples/server/src/app'
import { openTestStore } from '../../examples/server/test/helpers'
import type { Store } from '../../examples/server/src/store'
import { ROOT, launchBrowser } from './harness'
import { PAGE_INIT_SCRIPT } from './page-scripts'

const APP = 'portico-test-compat-00001'
const RECOVERY_KEY = 'e2e-compat-recovery-key-outside-the-db-0001'
const T = 60_000
const TYPED = {
  domain: { name: 'Compat', version: '1', chainId: 31337, verifyingContract: '0x0000000000000000000000000000000000000001' },
  types: { Greeting: [{ name: 'text', type: 'string' }] },
  primaryType: 'Greeting',
  message: { text: 'Hello from the published client' },
} as const
/** Complete (the client sends eth_signTransaction as given; only sending fills fields from a chain). */
const TX = { to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', value: '0x3e8', chainId: 31337, nonce: 3, gasLimit: '0x5208', maxFeePerGas: '0x3b9aca00', maxPriorityFeePerGas: '0x1' } as const

let store: Store
let api: Server
let host: Server
let apiUrl = ''
let hostUrl = ''
let hostLocalUrl = ''
let browser: Browser
const contexts: BrowserContext[] = []
const pageErrors = new WeakMap<Page, string[]>()

const listen = (s: Server) =>
  new Promise<number>((resolve, reject) => {
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port))
  })

beforeAll(async () => {
  host = createHttpServer()
  const hostPort = await listen(host)
  hostUrl = `http://127.0.0.1:${hostPort}`
  // http://localhost:<port> too: WebAuthn needs a domain (the passkey MFA test).
  hostLocalUrl = `http://localhost:${hostPort}`
  const apps = [{ id: APP, name: 'Compat test', loginMethods: ['email', 'passkey'], allowedOrigins: [hostUrl, hostLocalUrl], embeddedWallets: { createOnLogin: 'off' } }]
  store = await openTestStore()
  // The frame is served by the API server itself: the API's origin is the frame's origin.
  const app = await createServer({ store, apps: apps as never, dev: true, logCodes: false, logLevel: 'silent', limits: { resendCooldownS: 0 } as never, wallets: { frameOrigin: () => apiUrl, recoveryKey: RECOVERY_KEY } })
  api = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as unknown as Server
  await new Promise<void>((r) => (api.listening ? r() : api.once('listening', () => r())))
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`

  const bundle = await build({
    entryPoints: [`${ROOT}/test/e2e/compat-frame/host.ts`],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
    logLevel: 'silent',
  })
  const js = bundle.outputFiles[0].text
  // No inline script or style; requests and frames to the API only (as 127.0.0.1, or as
  // localhost for a page on localhost: host page and frame on one site either way).
  const apiLocalUrl = apiUrl.replace('127.0.0.1', 'localhost')
  const csp = `default-src 'none'; script-src 'self'; connect-src ${apiUrl} ${apiLocalUrl}; frame-src ${apiUrl} ${apiLocalUrl}; base-uri 'none'; form-action 'none'`
  host.on('request', (req, res) => {
    const local = (req.headers.host ?? '').startsWith('localhost:')
    const config = JSON.stringify({ appId: APP, apiUrl: local ? apiLocalUrl : apiUrl }).replace(/</g, '\\u003c')
    if (req.url === '/host.js') {
      res.writeHead(200, { 'content-type': 'text/javascript', 'content-security-policy': csp }).end(js)
      return
    }
    res
      .writeHead(200, { 'content-type': 'text/html', 'content-security-policy': csp })
      .end(
        `<!doctype html><html><head><title>compat host</title><script type="application/json" id="compat-config">${config}</script>` +
          `<script type="module" src="/host.js"></script></head><body></body></html>`,
      )
  })
  browser = await launchBrowser()
}, 120_000)

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {})
  await browser?.close().catch(() => {})
  for (const s of [host, api]) {
    if (!s) continue
    s.closeAllConnections?.()
    await new Promise<void>((r) => s.close(() => r()))
  }
  await store?.close()
})

/** A fresh browser profile (its own storage: no device share) with the host page ready. */
async function openHost(on: 'ip' | 'localhost' = 'ip'): Promise<Page> {
  const context = await browser.newContext()
  await context.addInitScript(PAGE_INIT_SCRIPT)
  contexts.push(context)
  const page = await context.newPage()
  const seen: string[] = []
  pageErrors.set(page, seen)
  page.on('pageerror', (e) => seen.push(`pageerror: ${e.message}`))
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content.Security.Policy|Refused to/i.test(m.text())) seen.push(m.text())
  })
  await page.goto(on === 'localhost' ? hostLocalUrl : hostUrl)
  await page.waitForSelector('body[data-ready], body[data-error]', { state: 'attached' })
  expect(await page.getAttribute('body', 'data-error')).toBeNull()
  return page
}

/** The newest code the dev outbox holds for `to`, newer than `after` (a code seen before). */
async function outboxCode(to: string, after?: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const list = (await (await fetch(`${apiUrl}/dev/outbox?to=${encodeURIComponent(to)}`, { headers: { accept: 'application/json' } })).json()) as { code: string }[]
    if (list[0]?.code && list[0].code !== after) return list[0].code
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`no code for ${to}`)
}

/** Logs in through the client (e-mail code); returns the user the client holds. */
async function login(page: Page, email: string): Promise<any> {
  const before = await outboxCode(email).catch(() => undefined)
  await page.evaluate((e) => (window as any).compat.privy.auth.email.sendCode(e), email)
  const code = await outboxCode(email, before)
  const res = await page.evaluate(([e, c]) => (window as any).compat.privy.auth.email.loginWithCode(e, c), [email, code] as const)
  expect(res.user.id).toMatch(/^did:/)
  return res.user
}

const embedded = (user: any, chain: 'ethereum' | 'solana') =>
  user.linked_accounts.find((a: any) => a.type === 'wallet' && a.wallet_client_type === 'privy' && a.chain_type === chain)

/** personal_sign through the client's EIP-1193 provider of `wallet` (recovering it when the device has no share). */
function personalSign(page: Page, wallet: unknown, message: string): Promise<Hex> {
  return page.evaluate(
    async ([w, m]) => {
      const privy = (window as any).compat.privy
      const provider = await privy.embeddedWallet.getProvider(w)
      const hex = `0x${Array.from(new TextEncoder().encode(m), (b) => b.toString(16).padStart(2, '0')).join('')}`
      return provider.request({ method: 'personal_sign', params: [hex, (w as { address: string }).address] })
    },
    [wallet, message] as const,
  )
}

/** A TOTP code of a time step the server has not seen yet (its window is ±1 step). */
function totpCodes(secret: string) {
  const totp = new OTPAuth.TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(secret) })
  let last = -Infinity
  return () => {
    const now = Math.floor(Date.now() / 30_000)
    const step = Math.max(last + 1, now - 1)
    if (step > now + 1) throw new Error('no unused TOTP step within the window')
    last = step
    return totp.generate({ timestamp: step * 30_000 })
  }
}

/** Waits until the client asks for an MFA code, then answers it. */
async function answerMfa(page: Page, method: 'totp' | 'sms', code: string) {
  await page.waitForFunction(() => (window as any).compat.mfaPending(), undefined, { timeout: T })
  await page.evaluate(([m, c]) => (window as any).compat.submitMfa(m, c), [method, code] as const)
}

describe('the published client drives the wallet frame at the API origin', () => {
  const EMAIL = 'compat-frame@example.com'
  let ethWallet: any
  let secret = ''
  let nextCode: () => string

  it('serves the frame at /apps/{appId}/embedded-wallets on the API origin, under its CSP', async () => {
    const res = await fetch(`${apiUrl}/apps/${APP}/embedded-wallets?client_id=x`)
    expect(res.status).toBe(200)
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toContain(`frame-ancestors ${hostUrl}`)
    expect(csp).toContain("connect-src 'self'")
    expect((await fetch(`${apiUrl}/apps/${APP}/embedded-wallets/export`)).status).toBe(400) // its query is checked
    expect((await fetch(`${apiUrl}/apps/portico-unknown-app-000001/embedded-wallets`)).status).toBe(404)
  })

  it('creates an embedded Ethereum and a Solana wallet, signs (message, typed data, transaction; Solana message), enrols TOTP MFA and verifies', async () => {
    const page = await openHost()
    await login(page, EMAIL)
    const user = await page.evaluate(() => (window as any).compat.privy.embeddedWallet.create({}).then((r: any) => r.user))
    ethWallet = embedded(user, 'ethereum')
    expect(ethWallet?.address).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(ethWallet.recovery_method).toBe('privy')
    const signature = await personalSign(page, ethWallet, 'Hello from the published client')
    expect(await verifyMessage({ address: ethWallet.address, message: 'Hello from the published client', signature })).toBe(true)
    // Typed data and a complete transaction, through the same provider.
    const [typedSig, signedTx] = (await page.evaluate(
      async ([w, typed, tx]) => {
        const provider = await (window as any).compat.privy.embeddedWallet.getProvider(w)
        const address = (w as { address: string }).address
        return [
          await provider.request({ method: 'eth_signTypedData_v4', params: [address, JSON.stringify(typed)] }),
          await provider.request({ method: 'eth_signTransaction', params: [{ ...tx, from: address }] }),
        ]
      },
      [ethWallet, TYPED, TX] as const,
    )) as [Hex, Hex]
    expect(await verifyTypedData({ address: ethWallet.address, ...TYPED, signature: typedSig })).toBe(true)
    const parsed = parseTransaction(signedTx)
    expect(parsed).toMatchObject({ to: TX.to.toLowerCase(), value: 1000n, chainId: 31337, nonce: 3, type: 'eip1559' })
    expect((await recoverTransactionAddress({ serializedTransaction: signedTx as never })).toLowerCase()).toBe(ethWallet.address.toLowerCase())

    // Solana on the same root, then signMessage through the client's Solana provider.
    const after = await page.evaluate((w) => (window as any).compat.privy.embeddedWallet.createSolana({ ethereumAccount: w }).then((r: any) => r.user), ethWallet)
    const sol = embedded(after, 'solana')
    expect(sol?.address).toBeTruthy()
    const message = base64.encode(new TextEncoder().encode('Hello Solana from the published client'))
    const out = (await page.evaluate(
      async ([s, addr, m]) => {
        const provider = await (window as any).compat.privy.embeddedWallet.getSolanaProvider(s, addr, 'ethereum-address-verifier')
        return provider.request({ method: 'signMessage', params: { message: m } })
      },
      [sol, ethWallet.address, message] as const,
    )) as { signature: string }
    expect(ed25519.verify(base64.decode(out.signature), base64.decode(message), base58.decode(sol.address))).toBe(true)

    // MFA: TOTP enrolment through the frame, then a verification (a wrong code first).
    const init = (await page.evaluate(() => (window as any).compat.privy.mfa.initEnrollMfa({ method: 'totp' }))) as { secret: string; authUrl: string }
    expect(init.authUrl).toMatch(/^otpauth:\/\/totp\//)
    secret = init.secret
    nextCode = totpCodes(secret)
    await page.evaluate((c) => (window as any).compat.privy.mfa.submitEnrollMfa({ method: 'totp', code: c }), nextCode())
    const me = await page.evaluate(() => (window as any).compat.privy.user.get().then((r: any) => r.user))
    expect(me.mfa_methods.map((m: any) => m.type)).toContain('totp')

    const verified = page.evaluate(() => (window as any).compat.privy.mfa.verifyMfa())
    await answerMfa(page, 'totp', '12345') // never a TOTP code: refused, and the client asks again
    await answerMfa(page, 'totp', nextCode())
    expect(await verified).toEqual({})
    expect(await page.evaluate(() => (window as any).compat.mfaPrompts())).toBe(1)
    // The fresh verification opens the auth share: the wallet still signs.
    const again = await personalSign(page, ethWallet, 'after MFA')
    expect(await verifyMessage({ address: ethWallet.address, message: 'after MFA', signature: again })).toBe(true)
    expect(pageErrors.get(page)).toEqual([])
  }, 3 * T)

  it('recovers the wallet on a fresh profile (the step-up is the MFA the client asks for) and signs', async () => {
    const page = await openHost()
    await login(page, EMAIL)
    const signed = personalSign(page, ethWallet, 'on a new device')
    await answerMfa(page, 'totp', nextCode())
    const signature = await signed
    expect(await verifyMessage({ address: ethWallet.address, message: 'on a new device', signature })).toBe(true)
    expect(pageErrors.get(page)).toEqual([])
  }, 2 * T)

  it('recovers on a fresh profile without MFA: the e-mailed step-up code goes through the client’s MFA prompt', async () => {
    const email = 'compat-frame-nomfa@example.com'
    const first = await openHost()
    await login(first, email)
    const user = await first.evaluate(() => (window as any).compat.privy.embeddedWallet.create({}).then((r: any) => r.user))
    const wallet = embedded(user, 'ethereum')

    const page = await openHost()
    await login(page, email)
    const loginCode = await outboxCode(email)
    const signed = personalSign(page, wallet, 'step-up by e-mail')
    // The frame asks for the code it had the server send (the client's MFA prompt, attempt 2).
    const code = await outboxCode(email, loginCode)
    await answerMfa(page, 'sms', code === '000000' ? '111111' : '000000') // a wrong code: the client asks again
    await answerMfa(page, 'sms', code)
    const signature = await signed
    expect(await verifyMessage({ address: wallet.address, message: 'step-up by e-mail', signature })).toBe(true)
    expect(pageErrors.get(page)).toEqual([])
  }, 2 * T)

  it('a wallet created with a recovery password recovers on a fresh profile with that password (a wrong one is refused with the spec’s text) and signs', async () => {
    const email = 'compat-frame-password@example.com'
    const PASSWORD = 'sunny-4-days'
    const first = await openHost()
    await login(first, email)
    const user = await first.evaluate((p) => (window as any).compat.privy.embeddedWallet.create({ password: p, recoveryMethod: 'user-passcode' }).then((r: any) => r.user), PASSWORD)
    const wallet = embedded(user, 'ethereum')
    expect(wallet.recovery_method).toBe('user-passcode')

    // A new browser: no device share; the password is the factor (no step-up code).
    const page = await openHost()
    await login(page, email)
    const wrong = await page.evaluate(
      (w) => (window as any).compat.privy.embeddedWallet.getProvider(w, 'not-the-password').then(
        (p: any) => p.request({ method: 'personal_sign', params: ['0x6869', (w as { address: string }).address] }).then(() => 'signed', (e: any) => String(e?.message ?? e)),
        (e: any) => String(e?.message ?? e),
      ),
      wallet,
    )
    expect(wrong).toContain('Invalid recovery password, please try again.')
    const signature = await page.evaluate(
      async ([w, p]) => {
        const provider = await (window as any).compat.privy.embeddedWallet.getProvider(w, p)
        return provider.request({ method: 'personal_sign', params: ['0x6869', (w as { address: string }).address] })
      },
      [wallet, PASSWORD] as const,
    )
    expect(await verifyMessage({ address: wallet.address, message: 'hi', signature: signature as Hex })).toBe(true)
    expect(pageErrors.get(page)).toEqual([])
  }, 3 * T)

  it('answers the client only from its parent window on an allowed origin', async () => {
    // A popup of the host's origin and a frame of the wallet frame's own origin (the API's) post
    // the client's envelope to the wallet frame: neither gets a reply, while the parent's pings,
    // sent after them, do (the frame answers in order).
    const page = await openHost()
    const ping = JSON.stringify({ id: 'id-evil', event: 'privy:iframe:ready', data: {} })
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.evaluate((u) => void window.open(u), hostUrl)])
    await popup.waitForFunction(() => !!(window as any).compat)
    await popup.evaluate((m) => {
      ;(window as any).got = []
      window.addEventListener('message', (e) => (e.data as { id?: string })?.id === 'id-evil' && (window as any).got.push(e.data))
      ;(window.opener as Window).frames[0].postMessage(m, '*')
    }, ping)
    await page.evaluate((api) => {
      const f = document.createElement('iframe')
      f.src = `${api}/health`
      document.body.appendChild(f)
      return new Promise((r) => (f.onload = r))
    }, apiUrl)
    const other = page.frames().find((f) => f.url() === `${apiUrl}/health`)!
    await other.evaluate((m) => {
      ;(window as any).got = []
      window.addEventListener('message', (e) => (window as any).got.push(e.data))
      window.parent.frames[0].postMessage(m, '*')
    }, ping)
    expect(await page.evaluate(() => (window as any).compat.privy.embeddedWallet.ping(30_000))).toBe(true)
    expect(await page.evaluate(() => (window as any).compat.privy.embeddedWallet.ping(30_000))).toBe(true)
    expect(await popup.evaluate(() => (window as any).got)).toEqual([])
    expect(await other.evaluate(() => (window as any).got)).toEqual([])
  }, 2 * T)

  it('verifies MFA with a passkey through the frame (the app runs WebAuthn, the frame the verification)', async () => {
    const page = await openHost('localhost')
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('WebAuthn.enable', { enableUI: false })
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    })
    await login(page, 'compat-frame-passkey@example.com')
    // Set-up: a passkey linked through the API (the client's own link is the HTTP suite's).
    const credentialId = await page.evaluate(async () => {
      const { privy, webauthn, apiUrl, appId } = (window as any).compat
      const token = await privy.getAccessToken()
      const post = async (path: string, body: unknown) => {
        const r = await fetch(`${apiUrl}/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'privy-app-id': appId, authorization: `Bearer ${token}` }, body: JSON.stringify(body) })
        if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`)
        return r.json()
      }
      const init = await post('/passkeys/link/init', {})
      const reg = await webauthn.startRegistration({ optionsJSON: init.options })
      await post('/passkeys/link', { relying_party: init.relying_party, challenge: init.options.challenge, authenticator_response: reg })
      return reg.id as string
    })
    await page.evaluate((id) => (window as any).compat.privy.mfa.submitEnrollMfa({ method: 'passkey', credentialIds: [id] }), credentialId)
    const verified = page.evaluate(() => (window as any).compat.privy.mfa.verifyMfa())
    await page.waitForFunction(() => (window as any).compat.mfaPending(), undefined, { timeout: T })
    await page.evaluate(async () => {
      const compat = (window as any).compat
      const r = await compat.privy.mfa.passkey.generateAuthenticationOptions({})
      compat.submitMfa('passkey', await compat.webauthn.startAuthentication({ optionsJSON: r.options }))
    })
    expect(await verified).toEqual({})
    expect(pageErrors.get(page)).toEqual([])
  }, 2 * T)
})
