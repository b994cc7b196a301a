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
import { type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core'
import { verifyMessage, verifyTypedData, type Hex } from 'viem'
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64 } from '@scure/base'
import * as OTPAuth from 'otpauth'
import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import { startSvm } from '../chains/svm'
import { ARTIFACTS, launchBrowser } from './harness'
import { XPD_APP, XPD_SECRET, startXpdServers, type XpdServers } from './wallet-export-delegation/servers'

let s: XpdServers
let browser: Browser
const contexts: BrowserContext[] = []

beforeAll(async () => {
  s = await startXpdServers()
  browser = await launchBrowser()
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

async function consentFrame(page: Page): Promise<Frame> {
  await page.waitForSelector('[role=dialog][data-screen=delegated-actions-consent] iframe[data-testid=delegated-actions-frame]')
  for (;;) {
    const f = page.frames().find((x) => x.url().includes('/embedded-wallets/delegate') && !x.isDetached())
    if (f) return f
    await page.waitForEvent('framenavigated')
  }
}

/** The whole consent shows without scrolling: the iframe fits its page and Allow sits inside the dialog. */
async function expectAllowInView(page: Page, frame: Frame) {
  await frame.waitForFunction(() => document.documentElement.scrollHeight <= innerHeight)
  const allow = (await (await frame.$('[data-testid=consent-allow]'))!.boundingBox())!
  const dialog = (await page.locator('[role=dialog]').boundingBox())!
  expect(allow.y + allow.height).toBeLessThanOrEqual(dialog.y + dialog.height)
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

  it('a script on the host page cannot delegate by message: the hidden frame refuses, the consent page waits for the user’s click', async () => {
    const { page } = host
    await page.click('[data-testid=delegate-ethereum]')
    await page.waitForSelector('[role=dialog][data-screen=delegated-actions-consent]')
    const frame = await consentFrame(page)
    await frame.waitForSelector('[data-testid=consent-allow]')
    const token = await tokenOf(page)
    const entropyId = await page.evaluate(() => (window as any).portico.plugin('embedded-wallet').wallets()[0].entropyId as string)
    // The host page's own script (what an XSS on the host could run) posts the consent itself.
    const replies = await page.evaluate(
      async ({ token, entropyId, address }) => {
        const ask = (win: Window, origin: string, type: string, payload: unknown) =>
          new Promise<unknown>((resolve) => {
            const id = `forged-${Math.random()}`
            const on = (e: MessageEvent) => {
              if (e.data?.id !== id) return
              window.removeEventListener('message', on)
              resolve(e.data.error ?? e.data.data)
            }
            window.addEventListener('message', on)
            win.postMessage({ protocol: 'portico-wallet-frame/1', id, type, payload }, origin)
          })
        const frames = [...document.querySelectorAll('iframe')] as HTMLIFrameElement[]
        const hidden = frames.find((f) => new URL(f.src).pathname.endsWith('/embedded-wallets'))!
        const consent = frames.find((f) => new URL(f.src).pathname.endsWith('/embedded-wallets/delegate'))!
        const origin = new URL(hidden.src).origin
        const wide = { methods: ['personal_sign', 'eth_signTypedData_v4', 'eth_signTransaction'], chain_ids: [1], contracts: null, max_value_per_tx: '1000000000000000000000', max_value_per_day: '1000000000000000000000', expires_in: 31536000 }
        const payload = { accessToken: token, entropyId, entropyIdVerifier: 'ethereum-address-verifier', address, chainType: 'ethereum', walletIndex: 0, policy: wide }
        let readable: string
        try {
          readable = consent.contentWindow!.document ? 'readable' : 'null'
        } catch {
          readable = 'threw'
        }
        // A click dispatched from here cannot reach the page either (another origin).
        return {
          hidden: await ask(hidden.contentWindow!, origin, 'delegated-actions:consent', payload),
          second: await ask(consent.contentWindow!, origin, 'delegated-actions:consent', payload),
          allow: await ask(consent.contentWindow!, origin, 'delegated-actions:allow', {}),
          readable,
        }
      },
      { token, entropyId, address: eth.address },
    )
    expect(replies.hidden).toEqual({ type: 'invalid_request_arguments', message: 'Offline access is given on the consent page only.' })
    expect(replies.second).toEqual({ type: 'invalid_request_arguments', message: 'This consent page has already been used.' })
    expect(replies.allow).toMatchObject({ type: 'invalid_request_arguments' })
    expect(replies.readable).toBe('threw')
    // Nothing was delegated: the backend gets nothing, the server holds no key.
    expect((await backendRpc(eth.address, { method: 'personal_sign', params: { message: 'by message alone' } })).status).toBe(404)
    expect(await s.store.query('SELECT 1 FROM wallet_delegations')).toHaveLength(0)
    expect((await wallets(page)).find((w) => w.chainType === 'ethereum')!.delegated).toBe(false)
    // Even a click made by a script inside the page itself is not the user's (event.isTrusted is false).
    await frame.waitForSelector('main[data-armed=true]')
    await frame.evaluate(() => {
      const allow = document.querySelector<HTMLButtonElement>('[data-testid=consent-allow]')!
      allow.click()
      allow.dispatchEvent(new MouseEvent('click', { bubbles: true }))
    })
    expect(await frame.getAttribute('[data-testid=consent-allow]', 'aria-busy')).toBeNull()
    expect(await frame.textContent('[data-testid=consent-allow]')).toBe('Allow')
    expect(await s.store.query('SELECT 1 FROM wallet_delegations')).toHaveLength(0)
    // Clickjacking: the host makes the page nearly transparent (to lay it over its own button):
    // Allow disarms while the browser reports the page not visible; it arms again when it is.
    await page.evaluate(() => document.querySelector<HTMLIFrameElement>('iframe[data-testid=delegated-actions-frame]')!.style.setProperty('opacity', '0.1'))
    await frame.waitForSelector('main[data-armed=false]')
    expect(await frame.isDisabled('[data-testid=consent-allow]')).toBe(true)
    await page.evaluate(() => document.querySelector<HTMLIFrameElement>('iframe[data-testid=delegated-actions-frame]')!.style.removeProperty('opacity'))
    await frame.waitForSelector('main[data-armed=true]')
        // The page still shows the host's policy (the one it proposed first), untouched by the forged request.
    expect(await frame.textContent('[data-testid=consent-policy]')).toContain('Local test chain (31337)')
    // Not now on the page: declined, nothing delegated.
    await frame.click('[data-testid=consent-decline]')
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 10_000 })
    await page.waitForFunction(() => document.querySelector('[data-testid=result]')?.textContent?.startsWith('error: user_rejected'))
    expect(await s.store.query('SELECT 1 FROM wallet_delegations')).toHaveLength(0)
  })

  it('delegates on the consent page (a real click on Allow): the app’s backend signs inside the policy, verified with viem and ed25519', async () => {
    const { page } = host
    // Before consent the backend gets nothing.
    expect((await backendRpc(eth.address, { method: 'personal_sign', params: { message: 'too early' } })).status).toBe(404)
    await page.click('[data-testid=delegate-ethereum]')
    await page.waitForSelector('[role=dialog][data-screen=delegated-actions-consent]')
    expect(await page.textContent('[role=dialog] .portico-title')).toBe('Enable offline access')
    const frame = await consentFrame(page)
    expect(new URL(frame.url()).origin).toBe(s.frameUrl)
    expect(frame.url()).not.toMatch(/token|eyJ|0x/i)
    await frame.waitForSelector('[data-testid=consent-policy]')
    // The app's name comes from the server's settings; the policy in plain words.
    expect(await frame.textContent('h1')).toBe('Acme Wallet Demo wants to use your wallet while you are away.')
    expect(await frame.textContent('[data-testid=consent-wallet]')).toContain(`${eth.address.slice(0, 6)}…${eth.address.slice(-4)}`)
    const lines = await frame.$$eval('[data-testid=consent-policy] li', (li) => li.map((x) => x.textContent))
    expect(lines.slice(0, 6)).toEqual([
      'Sign messages',
      'Sign typed data (EIP-712)',
      'Sign transactions',
      'On Local test chain (31337), Base Sepolia (84532)',
      'With any address or contract',
      'Up to 0.01 ETH per transaction and 0.05 ETH per day',
    ])
    expect(lines[6]).toMatch(/^Until \d{1,2} \w+ \d{4}, unless you revoke it sooner$/)
    // Allow arms once the consent has been shown; the click (a real one, in the page) delegates.
    await frame.waitForSelector('main[data-armed=true]')
    await expectAllowInView(page, frame)
    await shot(page, 'delegation-consent')
    await frame.click('[data-testid=consent-allow]')
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
    // Outside the policy: another chain, over the cap, no chain id.
    const tx = (over: Record<string, unknown>) => ({
      method: 'eth_signTransaction',
      params: { transaction: { to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', value: '0x0', chain_id: 31337, nonce: 0, gas_limit: 21000, max_fee_per_gas: '0x3b9aca00', max_priority_fee_per_gas: '0x1', ...over } },
    })
    expect((await backendRpc(eth.address, tx({ value: '0x2386f26fc10000' }))).status).toBe(200) // 0.01 ETH
    expect((await backendRpc(eth.address, tx({ chain_id: 1 }))).body.data.reason).toBe('chain_not_allowed')
    expect((await backendRpc(eth.address, tx({ value: '0x2386f26fc10001' }))).body.data.reason).toBe('value_over_tx_cap')
    const legacy = await backendRpc(eth.address, { method: 'eth_signTransaction', params: { transaction: { to: eth.address, value: 1, gas_price: 1, gas_limit: 21000, nonce: 1 } } })
    expect([legacy.status, legacy.body.data.reason]).toEqual([422, 'chain_id_required'])

    // The Solana wallet is not delegated yet; Escape inside the consent page closes the dialog (declined).
    expect((await backendRpc(sol.address, { method: 'signMessage', params: { message: base64.encode(new Uint8Array([1])) } })).status).toBe(404)
    await page.click('[data-testid=delegate-solana]')
    const escFrame = await consentFrame(page)
    await escFrame.click('[data-testid=consent-policy]')
    await escFrame.press('body', 'Escape')
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 10_000 })
    await page.waitForFunction(() => document.querySelector('[data-testid=result]')?.textContent?.startsWith('error: user_rejected'))
    // Then allowed (dark theme).
    await page.evaluate(() => (window as any).portico.setConfig({ appearance: { theme: 'dark' } }))
    await page.click('[data-testid=delegate-solana]')
    const solFrame = await consentFrame(page)
    await solFrame.waitForSelector('main[data-armed=true]')
    expect(new URL(solFrame.url()).searchParams.get('theme')).toBe('dark')
    expect(await solFrame.$$eval('[data-testid=consent-policy] li', (li) => li.map((x) => x.textContent))).toContain('Up to 0.01 SOL per transaction and 0.05 SOL per day')
    await expectAllowInView(page, solFrame)
    await shot(page, 'delegation-consent-dark')
    // By keyboard: Tab reaches Allow inside the page (the dialog's focus trap includes the iframe); Enter allows.
    const allowFocused = () => solFrame.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid === 'consent-allow')
    for (let i = 0; i < 6 && !(await allowFocused()); i++) await page.keyboard.press('Tab')
    expect(await allowFocused()).toBe(true)
    await page.keyboard.press('Enter')
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 30_000 })
    await page.evaluate(() => (window as any).portico.setConfig({ appearance: { theme: 'light' } }))
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
      const transfer = (lamports: number) =>
        base64.encode(new Transaction({ feePayer: from, recentBlockhash: value.blockhash }).add(SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports })).serialize({ requireAllSignatures: false, verifySignatures: false }))
      const signed = await backendRpc(sol.address, { method: 'signTransaction', params: { transaction: transfer(2_000_000) } })
      expect(signed.status).toBe(200)
      await svm.call('sendTransaction', [signed.body.data.signed_transaction, { encoding: 'base64' }])
      expect(await svm.balance(to.toBase58())).toBe(2_000_000)
      expect((await backendRpc(sol.address, { method: 'signTransaction', params: { transaction: transfer(10_000_001) } })).body.data.reason).toBe('value_over_tx_cap')
    } finally {
      svm.stop()
    }
    // A wrong secret gets nothing.
    expect((await backendRpc(eth.address, { method: 'personal_sign', params: { message: 'x' } }, XPD_SECRET + 'x')).status).toBe(401)

    // The user sees the latest delegated signatures, refusals included.
    await page.click('[data-testid=delegation-activity]')
    const list = page.locator('[data-testid=delegation-activity-list]')
    await list.waitFor()
    expect(await list.locator('li').count()).toBe(5)
    expect(await list.textContent()).toContain('signTransaction · refused (value_over_tx_cap)')
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
