/**
 * Farcaster signers in Chromium (issue 30) against the reference server, the wallet frame, the
 * Farcaster client API and hub stand-ins (examples/stand-ins/farcaster-client) and the
 * IdRegistry on a local hardhat node: a user logged in with Farcaster, with an embedded wallet
 * made on login, requests a signer; the awaiting-signer screen shows the QR code and the link;
 * the stand-in approves (as the Farcaster app would); the screen closes 1400 ms later and the
 * user record has the key; a cast signed in the frame verifies at the hub stand-in. Then
 * 'Request rejected' on revoke, 'Connect failed' after 5 minutes (the page's fake clock), the
 * two 'Must have …' errors, and the phone buttons at 390 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { serve } from '@hono/node-server'
import { Message, MessageData } from '@farcaster/core'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createFarcasterClientStandIn } from '../../examples/stand-ins/farcaster-client/server'
import { deployIdRegistry, farcasterApp, startChain, type Chain, type FarcasterUser, type IdRegistry } from '../../examples/server/test/chain/farcaster'
import { startHarness, type Harness } from './harness'

const FC = 'portico-test-farcaster-01'
/** apps.json: the Farcaster test app's signer is FID 1, its custody key in this variable. */
const APP_FID = 1
const CUSTODY_ENV = 'PORTICO_FARCASTER_APP_CUSTODY_KEY'
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
let h: Harness
let chain: Chain
let reg: IdRegistry
let standIn: { url: string; close(): void }
let fid = 7000 + (process.pid % 1000) * 10
const previousKey = process.env[CUSTODY_ENV]

beforeAll(async () => {
  chain = await startChain()
  reg = await deployIdRegistry(chain.rpc)
  const custodyKey = generatePrivateKey()
  await reg.register(APP_FID, privateKeyToAccount(custodyKey).address)
  process.env[CUSTODY_ENV] = custodyKey
  const fc = createFarcasterClientStandIn({ rpcUrl: chain.rpc, idRegistry: reg.address })
  const server = serve({ fetch: fc.app.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())))
  standIn = { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => void server.close() }
  h = await startHarness({ walletFrame: true, server: { farcaster: { rpcUrl: chain.rpc, idRegistry: reg.address, clientApiUrl: standIn.url } }, csp: { connectSrc: [chain.rpc] } })
}, 240_000)
afterAll(async () => {
  await h?.close()
  standIn?.close()
  chain?.stop()
  if (previousKey === undefined) delete process.env[CUSTODY_ENV]
  else process.env[CUSTODY_ENV] = previousKey
})

async function newUser(): Promise<FarcasterUser> {
  const u: FarcasterUser = { fid: fid++, custody: privateKeyToAccount(generatePrivateKey()), username: `signer${fid}` }
  await reg.register(u.fid, u.custody.address)
  return u
}

const standInPost = (path: string, body: unknown) => fetch(standIn.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
const waitStatus = (page: Page, text: string) => page.waitForFunction((t) => document.querySelector('[data-testid=status]')?.textContent === t, text, { timeout: 30_000 })
const open = (query: Record<string, string> = {}) => h.openPage({ app: FC, frame: h.frameUrl!, rpc: chain.rpc, createOnLogin: 'users-without-wallets', ...query })

/** Logs in with Farcaster (the Farcaster-app stand-in signs the SIWF message); with createOnLogin, the wallet comes with it. */
async function loginFarcaster(page: Page, u: FarcasterUser, wallet = true) {
  await page.getByTestId('login').click()
  await page.locator('[role=dialog] [data-method=farcaster]').click()
  await page.waitForFunction(() => !!(window as any).portico.plugin('farcaster').state.get().connectUri)
  const uri = await page.evaluate(() => (window as any).portico.plugin('farcaster').state.get().connectUri as string)
  await farcasterApp(h.apiUrl, uri, u)
  await waitStatus(page, 'logged in')
  if (wallet) await page.waitForSelector('[data-testid=wallet-ethereum]', { timeout: 30_000 })
  await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 30_000 })
}

/** Starts requestFarcasterSigner() in the page; its outcome lands in window.__signer ('approved' or the error's message). */
const request = (page: Page) =>
  page.evaluate(() => {
    ;(window as any).__signer = undefined
    ;(window as any).portico
      .plugin('farcaster-signer')
      .requestFarcasterSigner()
      .then(
        () => ((window as any).__signer = 'approved'),
        (e: Error) => ((window as any).__signer = `error: ${e.message}`),
      )
  })
const signerKey = (page: Page) => page.evaluate(() => (window as any).portico.plugin('farcaster-signer').state.get().publicKey as string)
const outcome = async (page: Page) => {
  await page.waitForFunction(() => (window as any).__signer !== undefined, undefined, { timeout: 30_000 })
  return page.evaluate(() => (window as any).__signer as string)
}

describe('Farcaster signers', { timeout: 120_000 }, () => {
  it('QR code and link; approved in the Farcaster app → closes 1400 ms later, the user record has the key; a cast signed in the frame verifies at the hub', async () => {
    const u = await newUser()
    const page = await open()
    await loginFarcaster(page, u)
    await request(page)
    await page.waitForSelector('[role=dialog][data-screen=farcaster-signer] svg.portico-qr-code', { timeout: 30_000 })
    expect(await page.textContent('[role=dialog] .portico-title')).toBe('Add a signer to Farcaster')
    await page.getByRole('button', { name: 'Copy link' }).waitFor()
    expect(await page.getByText('Or copy this link and paste it into a phone browser to open the Warpcast app.').count()).toBe(1)
    const url = await page.evaluate(() => (window as any).portico.plugin('farcaster-signer').state.get().approvalUrl as string)
    expect(url).toMatch(/^farcaster:\/\/signed-key-request\?token=0x[0-9a-f]+$/)
    await h.screenshot(page, 'farcaster-signer-qr')
    const key = await signerKey(page)
    expect(key).toMatch(/^0x[0-9a-f]{64}$/)
    // The page's own clock times the success screen: when 'Success!' is rendered and when the
    // dialog leaves (a busy test process would see both late).
    await page.evaluate(() => {
      const w = window as any
      const seen = () => {
        const title = document.querySelector('[role=dialog][data-screen=farcaster-signer] .portico-title')
        if (w.__successAt === undefined && title?.textContent === 'Success!') w.__successAt = performance.now()
        if (w.__successAt !== undefined && w.__closedAt === undefined && !document.querySelector('[role=dialog]')) w.__closedAt = performance.now()
      }
      new MutationObserver(seen).observe(document.body, { subtree: true, childList: true, characterData: true })
    })
    // The user approves in the Farcaster app.
    expect((await standInPost('/test/signed-key-requests/approve', { key, userFid: u.fid })).status).toBe(200)
    await page.waitForSelector('[role=dialog][data-screen=farcaster-signer] .portico-title:text-is("Success!")', { timeout: 10_000 })
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 10_000 })
    // The screen stays 1400 ms: its timer starts after 'Success!' is on the page.
    const shownMs = await page.evaluate(() => (window as any).__closedAt - (window as any).__successAt)
    expect(shownMs).toBeGreaterThanOrEqual(1395)
    expect(await outcome(page)).toBe('approved')
    await page.waitForFunction((k) => JSON.parse(document.querySelector('[data-testid=user]')?.textContent || '{}').farcaster?.signerPublicKey === k, key)

    // A cast built and signed in the page (its hash signed inside the wallet frame), submitted to the hub.
    const cast = await page.evaluate(async () => {
      const m = await (window as any).portico.plugin('farcaster-signer').makeCastAdd({ text: 'gm from Portico' })
      const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')
      return { dataBytes: hex(m.dataBytes), hash: hex(m.hash), signature: hex(m.signature), signer: hex(m.signer) }
    })
    expect(`0x${cast.signer}`).toBe(key)
    const b = (x: string) => Uint8Array.from(Buffer.from(x, 'hex'))
    const message = Message.create({ data: MessageData.decode(b(cast.dataBytes)), dataBytes: b(cast.dataBytes), hash: b(cast.hash), hashScheme: 1, signature: b(cast.signature), signatureScheme: 1, signer: b(cast.signer) })
    const hub = await fetch(`${standIn.url}/v1/submitMessage`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: Message.encode(message).finish() as Uint8Array<ArrayBuffer> })
    expect(hub.status).toBe(200)
    expect((await hub.json()).data).toMatchObject({ fid: u.fid, castAddBody: { text: 'gm from Portico' } })
    // @farcaster/core bundles protobufjs, whose optional-module probe (`inquire`) tries an eval
    // once per load and catches the refusal: the strict CSP reports it and everything works
    // (the cast above verified). Anything else is a failure.
    expect(h.consoleErrors(page).filter((e) => !/unsafe-eval|script-src' was not explicitly set/.test(e))).toEqual([])
  })

  it("'Request rejected' when the user revokes the request", async () => {
    const u = await newUser()
    const page = await open()
    await loginFarcaster(page, u)
    await request(page)
    await page.waitForSelector('[role=dialog][data-screen=farcaster-signer] svg.portico-qr-code', { timeout: 30_000 })
    expect((await standInPost('/test/signed-key-requests/revoke', { key: await signerKey(page) })).status).toBe(200)
    await page.waitForSelector('[role=dialog] .portico-title:text-is("Request rejected")', { timeout: 10_000 })
    expect(await page.getByText('The request was rejected. Please try again.').count()).toBe(1)
    await h.screenshot(page, 'farcaster-signer-rejected')
  })

  it("'Connect failed' after 5 minutes of waiting (the page's clock)", async () => {
    const u = await newUser()
    const page = await open()
    await page.clock.install()
    await loginFarcaster(page, u)
    await request(page)
    await page.waitForSelector('[role=dialog][data-screen=farcaster-signer] svg.portico-qr-code', { timeout: 30_000 })
    // Five minutes pass on the page's clock (no timer skipped: the next 2 s poll is the first
    // to run after them); that poll still answers pending, and the flow gives up.
    const t0 = await page.evaluate(() => Date.now())
    await page.clock.setSystemTime(t0 + 300_000)
    await page.clock.runFor(2_000)
    await page.waitForSelector('[role=dialog] .portico-title:text-is("Connect failed")', { timeout: 30_000 })
    expect(await page.getByText('Something went wrong. Please try again.').count()).toBe(1)
    await h.screenshot(page, 'farcaster-signer-failed')
  })

  it("'Must have an embedded wallet…' and 'Must have Farcaster account…'", async () => {
    const noWallet = await open({ createOnLogin: 'off' })
    await loginFarcaster(noWallet, await newUser(), false)
    await request(noWallet)
    await noWallet.getByRole('dialog').getByText('Must have an embedded wallet to use Farcaster signers').waitFor({ timeout: 10_000 })
    await h.screenshot(noWallet, 'farcaster-signer-no-wallet')

    // An e-mail user with a wallet and no Farcaster account.
    const page = await open()
    await h.openModal(page)
    const address = `fcs-${process.pid}-${Date.now()}@example.com`
    const since = Date.now()
    await page.fill('[role=dialog] input[type=email]', address)
    await page.keyboard.press('Enter')
    await page.waitForSelector('[role=dialog][data-screen=email-code]')
    const code = await h.readOutboxCode(address, since)
    await page.locator('[role=dialog] input[aria-label="Digit 1 of 6"]').click()
    await page.keyboard.type(code)
    await waitStatus(page, 'logged in')
    await page.waitForSelector('[data-testid=wallet-ethereum]', { timeout: 30_000 })
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 30_000 })
    await request(page)
    await page.getByRole('dialog').getByText('Must have Farcaster account to use Farcaster signers').waitFor({ timeout: 10_000 })
    await h.screenshot(page, 'farcaster-signer-no-farcaster')
  })

  it("phones (390 px): 'Open Warpcast app' and 'Take me to Warpcast' instead of the QR code", async () => {
    const u = await newUser()
    let context: BrowserContext | undefined
    try {
      context = await h.browser.newContext({ viewport: { width: 390, height: 844 }, userAgent: IPHONE, reducedMotion: 'reduce' })
      const page = await context.newPage()
      const q = new URLSearchParams({ app: FC, api: h.apiUrl, frame: h.frameUrl!, rpc: chain.rpc, createOnLogin: 'users-without-wallets' })
      await page.goto(`${h.appUrl}/?${q}`)
      await waitStatus(page, 'logged out')
      await loginFarcaster(page, u)
      await request(page)
      const openApp = page.getByRole('link', { name: 'Open Warpcast app', exact: true })
      await openApp.waitFor({ timeout: 30_000 })
      expect(await openApp.getAttribute('href')).toMatch(/^farcaster:\/\/signed-key-request\?token=0x/)
      const web = page.getByRole('link', { name: 'Take me to Warpcast', exact: true })
      expect(await web.getAttribute('href')).toMatch(/^https:\/\/client\.warpcast\.com\/deeplinks\/signed-key-request\?token=0x/)
      expect(await page.locator('svg.portico-qr-code').count()).toBe(0)
      await h.screenshot(page, 'farcaster-signer-mobile')
    } finally {
      await context?.close()
    }
  })
})
