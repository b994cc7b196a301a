/**
 * Key export and delegated actions in Chromium (issue 14), with the host app, the wallet frame
 * (and its export page) and the API on three origins, the real server and database:
 *
 * - 'Transfer wallet' shows the private key INSIDE the export page; the host page cannot read
 *   it (the test tries: the host's DOM text, `iframe.contentDocument`, every message the host
 *   window received, every response the host page loaded); the key's address is the wallet's;
 *   the recovery phrase export gives the same wallet;
 * - 'Enable offline access' → the test, as the app's backend with the app secret over HTTP,
 *   gets signatures it verifies with viem (Ethereum) and ed25519 (Solana);
 * - revoke → the backend's request is refused;
 * - with an authenticator app enrolled, export forces 'Verify your identity' first, and the
 *   server refuses the export page's share to a session that has not verified.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromium, type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core'
import { verifyMessage, verifyTypedData, type Hex } from 'viem'
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64 } from '@scure/base'
import * as OTPAuth from 'otpauth'
import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import { startSvm } from '../chains/svm'
import { ARTIFACTS, CHROMIUM_ARGS, chromiumPath } from './harness'
import { XPD_APP, XPD_SECRET, startXpdServers, type XpdServers } from './wallet-export-delegation/servers'

let s: XpdServers
let browser: Browser
const contexts: BrowserContext[] = []

beforeAll(async () => {
  s = await startXpdServers()
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS })
}, 120_000)
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {})
  await browser?.close()
  await s?.close()
})

interface HostPage {
  page: Page
  /** Bodies of every response the host page itself (its main frame) loaded. */
  responses: string[]
  /** Console errors and CSP violations on the host page. */
  errors: string[]
}

async function hostPage(query: Record<string, string> = {}): Promise<HostPage> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, reducedMotion: 'reduce' })
  contexts.push(context)
  const page = await context.newPage()
  // Every message this window receives, recorded before the app runs.
  await page.addInitScript(() => {
    const w = window as unknown as { __messages: string[] }
    w.__messages = []
    window.addEventListener(
      'message',
      (e) => {
        try {
          w.__messages.push(JSON.stringify(e.data))
        } catch {
          w.__messages.push(String(e.data))
        }
      },
      true,
    )
  })
  const responses: string[] = []
  const errors: string[] = []
  page.on('response', (r) => {
    if (r.frame() !== page.mainFrame()) return
    r.text().then(
      (t) => responses.push(t),
      () => {},
    )
  })
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto(s.page(query))
  await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged out')
  return { page, responses, errors }
}

async function outboxCode(to: string): Promise<string> {
  for (;;) {
    const list = (await (await fetch(`${s.apiUrl}/dev/outbox?to=${encodeURIComponent(to)}`, { headers: { accept: 'application/json' } })).json()) as { code: string }[]
    if (list[0]?.code) return list[0].code
    await new Promise((r) => setTimeout(r, 100))
  }
}

interface Wallet {
  address: string
  chainType: 'ethereum' | 'solana'
  delegated: boolean
}
const wallets = async (page: Page): Promise<Wallet[]> =>
  page.evaluate(() => (window as any).portico.session.user.linkedAccounts.filter((a: any) => a.type === 'wallet' && a.walletClientType === 'privy'))

/** Logs in by e-mail through the modal; the embedded wallets are created on login. */
async function login(page: Page, address: string) {
  await page.click('[data-testid=login]')
  await page.fill('[role=dialog] input[type=email]', address)
  await page.keyboard.press('Enter')
  await page.waitForSelector('[role=dialog][data-screen=email-code]')
  const code = await outboxCode(address)
  await page.locator('[role=dialog] input[aria-label="Digit 1 of 6"]').click()
  await page.keyboard.type(code)
  await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged in')
  await page.waitForFunction(
    () => ((window as any).portico.session.user?.linkedAccounts ?? []).filter((a: any) => a.type === 'wallet' && a.walletClientType === 'privy').length === 2,
    undefined,
    { timeout: 30_000 },
  )
  await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 15_000 })
  await page.waitForSelector('[data-testid=wallet-access]')
}

async function exportFrame(page: Page): Promise<Frame> {
  await page.waitForSelector('[role=dialog][data-screen=wallet-export] iframe[data-testid=wallet-export-frame]')
  for (;;) {
    const f = page.frames().find((x) => x.url().includes('/embedded-wallets/export'))
    if (f) return f
    await page.waitForEvent('framenavigated')
  }
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${ARTIFACTS}/${name}.png` })
}

const backendRpc = (address: string, body: unknown, secret = XPD_SECRET) =>
  fetch(`${s.apiUrl}/api/v1/wallets/${address}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'privy-app-id': XPD_APP, authorization: `Basic ${Buffer.from(`${XPD_APP}:${secret}`).toString('base64')}` },
    body: JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }))

describe('key export and delegated actions', { timeout: 120_000 }, () => {
  let host: HostPage
  let eth: Wallet
  let sol: Wallet

  beforeAll(async () => {
    host = await hostPage()
    await login(host.page, `xpd-${process.pid}@example.com`)
    const list = await wallets(host.page)
    eth = list.find((w) => w.chainType === 'ethereum')!
    sol = list.find((w) => w.chainType === 'solana')!
    expect(eth && sol).toBeTruthy()
  }, 120_000)

  it('exports the private key inside the export page; the host page cannot read it', async () => {
    const { page } = host
    await page.click('[data-testid=export-wallet]')
    await page.waitForSelector('[role=dialog][data-screen=wallet-export]')
    expect(await page.textContent('[role=dialog] .portico-title')).toBe('Transfer wallet')
    const frame = await exportFrame(page)
    expect(new URL(frame.url()).origin).toBe(s.frameUrl)
    // Only public data in the frame's address: no token.
    const frameQuery = Object.fromEntries(new URL(frame.url()).searchParams)
    expect(frameQuery).toMatchObject({ primaryAddress: eth.address, address: eth.address, walletIndex: '0', phrase_export: 'false' })
    expect(frame.url()).not.toMatch(/token|eyJ/i)
    // The loading button waits for the page to show the key.
    const secret = (await (await frame.waitForSelector('[data-testid=export-secret]', { timeout: 30_000 })).textContent())!
    await page.waitForSelector('[data-testid=wallet-export-done]:not([aria-busy])')
    expect(secret).toMatch(/^0x[0-9a-f]{64}$/)
    // The exported key is the wallet's.
    expect(privateKeyToAccount(secret as Hex).address).toBe(eth.address)
    // QR code of 275 px, inside the frame.
    const qr = await frame.waitForSelector('.x-qr svg')
    expect(await qr.getAttribute('width')).toBe('275')
    expect(Math.round((await qr.boundingBox())!.width)).toBe(275)
    await frame.click('[data-testid=export-copy]')
    await frame.getByText('Copied', { exact: true }).waitFor()
    await shot(page, 'wallet-export')

    // The host page tries to read it, every way it can.
    const raw = secret.slice(2).toLowerCase()
    const dom = await page.evaluate(() => document.documentElement.outerHTML + '\n' + document.body.innerText)
    expect(dom.toLowerCase()).not.toContain(raw)
    const access = await page.evaluate(() => {
      const f = document.querySelector('iframe[data-testid=wallet-export-frame]') as HTMLIFrameElement
      let contentDocument: string
      try {
        contentDocument = f.contentDocument === null ? 'null' : 'readable'
      } catch {
        contentDocument = 'threw'
      }
      let windowDocument: string
      try {
        windowDocument = f.contentWindow!.document ? 'readable' : 'null'
      } catch {
        windowDocument = 'threw'
      }
      return { contentDocument, windowDocument }
    })
    expect(access).toEqual({ contentDocument: 'null', windowDocument: 'threw' })
    const messages = await page.evaluate(() => (window as unknown as { __messages: string[] }).__messages)
    expect(messages.length).toBeGreaterThan(0) // the frame's replies did arrive …
    expect(messages.some((m) => m.includes('"exported":true'))).toBe(true)
    for (const m of messages) expect(m.toLowerCase()).not.toContain(raw) // … without the key
    expect(host.responses.length).toBeGreaterThan(0)
    for (const body of host.responses) expect(body.toLowerCase()).not.toContain(raw)

    await page.click('[data-testid=wallet-export-done]')
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    await page.waitForFunction(() => document.querySelector('[data-testid=result]')?.textContent === 'complete: export')
  })

  it('exports the recovery phrase (dark theme): it rebuilds the same wallet', async () => {
    const { page } = host
    await page.evaluate(() => (window as any).portico.setConfig({ appearance: { theme: 'dark' } }))
    await page.click('text=Export recovery phrase')
    const frame = await exportFrame(page)
    const phrase = (await (await frame.waitForSelector('[data-testid=export-secret]', { timeout: 30_000 })).textContent())!
    expect(phrase.split(' ')).toHaveLength(12)
    expect(mnemonicToAccount(phrase).address).toBe(eth.address)
    expect(new URL(frame.url()).searchParams.get('theme')).toBe('dark')
    const dom = await page.evaluate(() => document.body.innerText)
    expect(dom).not.toContain(phrase.split(' ').slice(0, 3).join(' '))
    await shot(page, 'wallet-export-phrase')
    await page.click('[data-testid=wallet-export-done]')
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    await page.evaluate(() => (window as any).portico.setConfig({ appearance: { theme: 'light' } }))
  })

  it('delegates: the app’s backend signs with the app secret, verified with viem and ed25519', async () => {
    const { page } = host
    // Before consent the backend gets nothing.
    expect((await backendRpc(eth.address, { method: 'personal_sign', params: { message: 'too early' } })).status).toBe(404)
    await page.click('[data-testid=delegate-ethereum]')
    await page.waitForSelector('[role=dialog][data-screen=delegated-actions-consent]')
    expect(await page.textContent('[role=dialog] .portico-title')).toBe('Enable offline access')
    expect(await page.textContent('[role=dialog]')).toContain('Acme Wallet Demo wants to use your wallet while you are away.')
    await shot(page, 'delegation-consent')
    await page.getByRole('dialog').getByRole('button', { name: 'Enable', exact: true }).click()
    await page.getByRole('dialog').getByText('Offline access enabled', { exact: true }).waitFor({ timeout: 30_000 })
    await shot(page, 'delegation-consent-success')
    // Closes by itself after 2.5 s.
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 10_000 })
    await page.waitForFunction(() => document.querySelector('[data-testid=result]')?.textContent === 'complete: delegate')
    expect((await wallets(page)).find((w) => w.chainType === 'ethereum')!.delegated).toBe(true)

    const msg = await backendRpc(eth.address, { method: 'personal_sign', params: { message: 'Signed while you were away', encoding: 'utf-8' } })
    expect(msg.status).toBe(200)
    expect(await verifyMessage({ address: eth.address as Hex, message: 'Signed while you were away', signature: msg.body.data.signature })).toBe(true)
    const typed = {
      domain: { name: 'Acme', version: '1', chainId: 31337, verifyingContract: '0x0000000000000000000000000000000000000001' },
      types: { Order: [{ name: 'id', type: 'uint256' }, { name: 'to', type: 'address' }] },
      primaryType: 'Order',
      message: { id: '7', to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
    } as const
    const td = await backendRpc(eth.address, { method: 'eth_signTypedData_v4', params: { typed_data: typed } })
    expect(td.status).toBe(200)
    expect(await verifyTypedData({ address: eth.address as Hex, ...typed, message: { id: 7n, to: typed.message.to }, signature: td.body.data.signature })).toBe(true)
    // The Solana wallet is not delegated yet; then it is.
    expect((await backendRpc(sol.address, { method: 'signMessage', params: { message: base64.encode(new Uint8Array([1])) } })).status).toBe(404)
    await page.click('[data-testid=delegate-solana]')
    await page.waitForSelector('[role=dialog][data-screen=delegated-actions-consent]')
    await page.getByRole('dialog').getByRole('button', { name: 'Enable', exact: true }).click()
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 30_000 })
    const bytes = new TextEncoder().encode('Solana, while you were away')
    const solSig = await backendRpc(sol.address, { method: 'signMessage', params: { message: base64.encode(bytes) } })
    expect(solSig.status).toBe(200)
    expect(ed25519.verify(base64.decode(solSig.body.data.signature), bytes, base58.decode(sol.address))).toBe(true)
    // The backend signs a Solana transfer (signTransaction); the SVM runs it.
    const svm = await startSvm()
    try {
      await svm.airdrop(sol.address, 1_000_000_000n)
      const from = new PublicKey(sol.address)
      const to = Keypair.generate().publicKey
      const { value } = await svm.call<{ value: { blockhash: string } }>('getLatestBlockhash', [])
      const tx = new Transaction({ feePayer: from, recentBlockhash: value.blockhash }).add(SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports: 2_000_000 }))
      const signed = await backendRpc(sol.address, { method: 'signTransaction', params: { transaction: base64.encode(tx.serialize({ requireAllSignatures: false, verifySignatures: false })) } })
      expect(signed.status).toBe(200)
      await svm.call('sendTransaction', [signed.body.data.signed_transaction, { encoding: 'base64' }])
      expect(await svm.balance(to.toBase58())).toBe(2_000_000)
    } finally {
      svm.stop()
    }
    // A wrong secret gets nothing.
    expect((await backendRpc(eth.address, { method: 'personal_sign', params: { message: 'x' } }, XPD_SECRET + 'x')).status).toBe(401)
  })

  it('revokes: the backend’s request is refused', async () => {
    const { page } = host
    await page.click('[data-testid=revoke-delegation]')
    await page.waitForSelector('[role=dialog][data-screen=delegated-actions-revoke]')
    expect(await page.textContent('[role=dialog] .portico-title')).toBe('Revoke offline access')
    await shot(page, 'delegation-revoke')
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke', exact: true }).click()
    await page.getByRole('dialog').getByText('Offline access revoked', { exact: true }).waitFor()
    await shot(page, 'delegation-revoke-success')
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 10_000 })
    expect((await wallets(page)).every((w) => !w.delegated)).toBe(true)
    const after = await backendRpc(eth.address, { method: 'personal_sign', params: { message: 'after revoke' } })
    expect([after.status, after.body.code]).toEqual([404, 'wallet_not_delegated'])
    expect((await backendRpc(sol.address, { method: 'signMessage', params: { message: 'AQ==' } })).status).toBe(404)
    expect(host.errors.filter((e) => /Content Security Policy|Refused to/i.test(e))).toEqual([])
  })
})

/** The access token of the page's session (the test acts as that user against the API). */
const tokenOf = (page: Page) => page.evaluate(() => (window as any).portico.session.getAccessToken() as Promise<string>)

const api = (path: string, token: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${s.apiUrl}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'privy-app-id': XPD_APP, authorization: `Bearer ${token}`, ...headers },
    body: JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }))

async function typeCode(page: Page, code: string) {
  await page.waitForSelector('[role=dialog] .portico-code-box:not([disabled])')
  await page.click('[role=dialog] .portico-code-box >> nth=0')
  await page.keyboard.type(code, { delay: 15 })
}

describe('export forces verification (MFA)', { timeout: 150_000 }, () => {
  it('asks "Verify your identity" before Transfer wallet; the server refuses an unverified session', async () => {
    const { page } = await hostPage({ mfa: '1' })
    const email = `xpd-mfa-${process.pid}@example.com`
    await login(page, email)
    const eth = (await wallets(page)).find((w) => w.chainType === 'ethereum')!
    const entropyId = await page.evaluate(() => (window as any).portico.plugin('embedded-wallet').wallets()[0].entropyId as string)

    // Enrol an authenticator app through the API (the test computes codes with otpauth).
    let token = await tokenOf(page)
    const init = await api('/mfa/totp/init', token, {})
    expect(init.status).toBe(200)
    const gen = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(init.body.secret), digits: 6, period: 30, algorithm: 'SHA1' })
    expect((await api('/mfa/totp/enroll', token, { code: gen.generate({ timestamp: Date.now() - 30_000 }) })).status).toBe(200)

    // A new session: not verified.
    await page.evaluate(() => (window as any).portico.session.logout())
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged out')
    await login(page, email)
    token = await tokenOf(page)
    expect(await page.evaluate(() => (window as any).portico.session.user.mfaMethods.length)).toBe(1)

    // The export page's share (purpose 'export') asked outside the frame (its Origin forged): no device proof, nothing
    // (the frame's own request is refused until the session verifies: examples/server/test/mfa.test.ts).
    const refused = await api('/wallets/auth_share', token, { entropy_id: entropyId, purpose: 'export' }, { origin: s.frameUrl })
    expect([refused.status, refused.body.code]).toEqual([403, 'device_proof_required'])
    expect(refused.body.share).toBeUndefined()

    // 'Not now': no export, and no export page was ever loaded.
    await page.click('[data-testid=export-wallet]')
    await page.getByRole('heading', { name: 'Verify your identity' }).waitFor()
    expect(await page.$('iframe[data-testid=wallet-export-frame]')).toBeNull()
    await shot(page, 'wallet-export-mfa-verify')
    await page.getByRole('button', { name: 'Not now' }).click()
    await page.waitForFunction(() => document.querySelector('[data-testid=result]')?.textContent?.startsWith('error'))
    expect(page.frames().some((f) => f.url().includes('/embedded-wallets/export'))).toBe(false)

    // Verify, then the key shows in the export page.
    await page.click('[data-testid=export-wallet]')
    await page.waitForSelector('[data-mfa-verify][data-mfa-method=totp][data-mfa-status=awaiting-code]')
    await typeCode(page, gen.generate())
    const frame = await exportFrame(page)
    const secret = (await (await frame.waitForSelector('[data-testid=export-secret]', { timeout: 30_000 })).textContent())!
    expect(privateKeyToAccount(secret as Hex).address).toBe(eth.address)
    expect((await page.evaluate(() => document.body.innerText)).toLowerCase()).not.toContain(secret.slice(2).toLowerCase())
    await page.click('[data-testid=wallet-export-done]')
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
  })
})
