/**
 * WalletConnect v2 in Chromium against the reference server, through the relay stand-in
 * (examples/stand-ins/walletconnect-relay), with a REAL wallet: a second
 * `@walletconnect/sign-client` in this Node process (test/e2e/wallets/walletconnect.ts) that
 * pairs with the URI read from the page's QR element, approves the session and signs the SIWE
 * message with a viem account. Closing the QR rejects; the session comes back after a reload
 * and signs again; on a phone (Chromium mobile emulation) the wallet links replace the QR.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devices, type Page } from 'playwright-core'
import { verifyMessage, type Hex } from 'viem'
import { startHarness, type Harness } from './harness'
import { until } from './page-scripts'
import { startRelay, type Relay } from '../../examples/stand-ins/walletconnect-relay/relay'
import { startWallet, type TestWallet } from './wallets/walletconnect'

let h: Harness
let relay: Relay
const wallets: TestWallet[] = []
beforeAll(async () => {
  relay = await startRelay()
  h = await startHarness({ csp: { connectSrc: [relay.url] } })
})
afterAll(async () => {
  for (const w of wallets) await w.close()
  await h?.close()
  await relay?.close()
})

const WC_ROW = '[data-method="wallet:walletconnect"]'
const PAIRING = '[data-portico-wc-uri]'

async function newWallet(name?: string) {
  const w = await startWallet(relay.url, name)
  wallets.push(w)
  return w
}

async function userRecord(page: Page) {
  return JSON.parse((await page.textContent('[data-testid=user]')) ?? 'null')
}

/** Console errors besides the CSP reports of data: icons (the harness CSP has no img-src data:). */
function errorsBesidesIcons(page: Page) {
  return h.consoleErrors(page).filter((e) => !/img-src|Refused to load the image 'data:/.test(e))
}

async function openWalletConnect(page: Page) {
  await h.openModal(page)
  await page.click('[data-method="wallet"]')
  await page.waitForSelector(WC_ROW)
  expect(await page.textContent(WC_ROW)).toContain('WalletConnect')
  await page.click(WC_ROW)
}

describe('walletconnect in the browser', () => {
  it('logs in by QR: the wallet pairs with the page URI, approves and signs; restored after a reload; disconnect', async () => {
    const page = await h.openPage({ wcRelay: relay.url })
    // What loads when: sign-client (its session-proposal code) is in no script until the click.
    const signClientLoaded = async () => {
      const scripts = await page.evaluate(() => [
        ...new Set([
          ...performance.getEntriesByType('resource').map((e) => e.name),
          ...[...document.querySelectorAll('script[src]')].map((s) => (s as HTMLScriptElement).src),
        ]),
      ])
      const js = scripts.filter((u) => /\.js(\?|$)/.test(u))
      expect(js.length).toBeGreaterThan(0)
      for (const url of js) if ((await (await fetch(url)).text()).includes('wc_sessionPropose')) return true
      return false
    }
    await h.openModal(page)
    await page.click('[data-method="wallet"]')
    await page.waitForSelector(WC_ROW)
    expect(await signClientLoaded()).toBe(false)
    await page.click(WC_ROW)
    await page.waitForSelector(`${PAIRING} svg[role=img]`)
    expect(await signClientLoaded()).toBe(true)
    const dialog = page.locator('[role=dialog]')
    expect(await dialog.locator('.portico-title').textContent()).toBe('WalletConnect')
    expect(await dialog.textContent()).toContain('Scan with your wallet')
    expect(await page.getAttribute(`${PAIRING} svg`, 'aria-label')).toBe('Scan with your wallet')
    const uri = (await page.getAttribute(PAIRING, 'data-portico-wc-uri'))!
    expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?.*symKey=[0-9a-f]{64}/)
    expect(await page.getByRole('button', { name: 'Copy link' }).count()).toBe(1)
    await h.screenshot(page, 'walletconnect-qr')

    const wallet = await newWallet()
    await wallet.pair(uri)
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 30_000 })
    expect(await page.textContent('[data-testid=status]')).toBe('logged in')
    expect(await page.textContent('[data-testid=result]')).toBe('complete: siwe (new user)')
    const user = await userRecord(page)
    expect(user.wallet).toMatchObject({ address: wallet.address, chainType: 'ethereum', chainId: 'eip155:1', connectorType: 'wallet_connect_v2', walletClientType: 'wallet_connect' })
    expect(wallet.requests.map((r) => r.method)).toEqual(['personal_sign'])
    await h.screenshot(page, 'walletconnect-logged-in')

    // Reload: the kernel's session and the WalletConnect session both come back.
    await page.reload()
    await h.waitReady(page)
    expect(await page.textContent('[data-testid=status]')).toBe('logged in')
    await page.evaluate(until(`window.portico.plugin('walletconnect').state.get().status === 'connected'`, 30_000))
    const signed = (await page.evaluate(async (address) => {
      const provider = await (window as any).portico.plugin('walletconnect').getEthereumProvider()
      return provider.request({ method: 'personal_sign', params: ['0x68656c6c6f2066726f6d207468652070616765', address] })
    }, wallet.address)) as Hex
    expect(await verifyMessage({ address: wallet.address as Hex, message: 'hello from the page', signature: signed })).toBe(true)

    // Disconnect: the wallet is told, the page forgets the session.
    await page.evaluate(() => (window as any).portico.plugin('walletconnect').disconnect())
    await expect.poll(() => wallet.deleted.length, { timeout: 15_000 }).toBe(1)
    expect(await page.evaluate(() => (window as any).portico.plugin('walletconnect').state.get().status)).toBe('idle')
    expect(errorsBesidesIcons(page)).toEqual([])
  })

  it('logging out of Portico ends the WalletConnect session: the wallet sees the session delete; a reload restores nothing', async () => {
    const page = await h.openPage({ wcRelay: relay.url })
    await openWalletConnect(page)
    await page.waitForSelector(`${PAIRING} svg[role=img]`)
    const wallet = await newWallet()
    await wallet.pair((await page.getAttribute(PAIRING, 'data-portico-wc-uri'))!)
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 30_000 })
    expect(await page.textContent('[data-testid=status]')).toBe('logged in')
    const topic = wallet.client.session.getAll()[0].topic

    // After a reload, so the session is the restored one (the libraries load for it).
    await page.reload()
    await h.waitReady(page)
    await page.evaluate(until(`window.portico.plugin('walletconnect').state.get().status === 'connected'`, 30_000))
    await page.click('[data-testid=logout]')
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged out')
    await expect.poll(() => wallet.deleted, { timeout: 15_000 }).toEqual([topic])
    expect(await page.evaluate(() => (window as any).portico.plugin('walletconnect').state.get())).toMatchObject({ status: 'idle', address: null })
    expect(wallet.client.session.getAll().length).toBe(0)

    await page.reload()
    await h.waitReady(page)
    expect(await page.textContent('[data-testid=status]')).toBe('logged out')
    expect(await page.evaluate(() => (window as any).portico.plugin('walletconnect').restore())).toBeNull()
    expect(errorsBesidesIcons(page)).toEqual([])
  })

  it('a connect-only session (logged out) is listed connected after a reload without a QR or a prompt', async () => {
    const page = await h.openPage({ wcRelay: relay.url })
    const result = page.evaluate(() => (window as any).porticoConnectWallet())
    await page.click(WC_ROW)
    await page.waitForSelector(`${PAIRING} svg[role=img]`)
    const wallet = await newWallet()
    await wallet.pair((await page.getAttribute(PAIRING, 'data-portico-wc-uri'))!)
    expect(await result).toMatchObject({ address: wallet.address, connectorType: 'wallet_connect_v2' })
    expect(await page.textContent('[data-testid=status]')).toBe('logged out')
    const listed = [{ address: wallet.address, walletClientType: 'wallet_connect', connectorType: 'wallet_connect_v2', linked: false }]
    const external = () => page.evaluate(() => (window as any).porticoExternalWallets())
    expect(await external()).toEqual(listed)

    await page.reload()
    await h.waitReady(page)
    await expect.poll(external, { timeout: 30_000 }).toEqual(listed)
    expect(await page.locator('[role=dialog]').count()).toBe(0)
    expect(wallet.requests).toEqual([])
    expect(errorsBesidesIcons(page)).toEqual([])
  })

  it('closing the QR counts as the user rejecting; Try connecting again shows a new QR (dark theme, axe)', async () => {
    // bypassCSP: axe is injected (the relay is still reached the same way).
    const page = await h.openPage({ wcRelay: relay.url, theme: 'dark' }, { bypassCSP: true })
    await openWalletConnect(page)
    await page.waitForSelector(`${PAIRING} svg[role=img]`)
    await h.screenshot(page, 'walletconnect-qr-dark')
    expect(await h.axe(page, '[role=dialog]')).toEqual([])
    const first = await page.getAttribute(PAIRING, 'data-portico-wc-uri')
    await page.getByRole('button', { name: 'Close QR code' }).click()
    await page.waitForSelector('[data-portico-wallet-status=error]')
    const dialog = page.locator('[role=dialog]')
    expect(await dialog.locator('.portico-title').textContent()).toBe('You rejected the request')
    expect(await dialog.textContent()).toContain('Unable to connect to wallet')
    await h.screenshot(page, 'walletconnect-qr-closed')
    expect(await h.axe(page, '[role=dialog]')).toEqual([])
    await page.getByRole('button', { name: 'Try connecting again' }).click()
    await page.waitForSelector(PAIRING)
    const second = await page.getAttribute(PAIRING, 'data-portico-wc-uri')
    expect(second).not.toBe(first)
    expect(errorsBesidesIcons(page)).toEqual([])
  })

  it('with the Verify API on (its iframe refused by the CSP), the login still works: only the CSP reports, no page error', async () => {
    const page = await h.openPage({ wcRelay: relay.url, wcVerify: '1' })
    await openWalletConnect(page)
    await page.waitForSelector(PAIRING, { timeout: 30_000 })
    const wallet = await newWallet()
    await wallet.pair((await page.getAttribute(PAIRING, 'data-portico-wc-uri'))!)
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 30_000 })
    expect((await userRecord(page)).wallet.address).toBe(wallet.address)
    const errors = errorsBesidesIcons(page)
    expect(errors.length).toBeGreaterThan(0)
    for (const e of errors) expect(e).toMatch(/^Framing 'https:\/\/verify\.walletconnect\.org\/' violates the following Content Security Policy directive/)
  })

  it('on a phone (mobile emulation) offers wallet deep links instead of the QR, then logs in after Sign with your wallet', async () => {
    const context = await h.browser.newContext({ ...devices['Pixel 7'], reducedMotion: 'reduce' })
    const page = await context.newPage()
    const errors: string[] = []
    page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())))
    await page.goto(`${h.appUrl}/?${new URLSearchParams({ api: h.apiUrl, wcRelay: relay.url })}`)
    await h.waitReady(page)
    await openWalletConnect(page)
    await page.waitForSelector('[data-portico-wc-pairing=mobile]')
    expect(await page.locator('.portico-qr').count()).toBe(0)
    const uri = (await page.getAttribute(PAIRING, 'data-portico-wc-uri'))!
    expect(await page.getAttribute('[data-portico-wc-wallet=metamask]', 'href')).toBe(`https://metamask.app.link/wc?uri=${encodeURIComponent(uri)}`)
    expect(await page.getAttribute('[data-portico-wc-wallet=rainbow]', 'href')).toBe(`https://rnbwapp.com/wc?uri=${encodeURIComponent(uri)}`)
    expect(await page.getAttribute('[data-portico-wc-wallet=other]', 'href')).toBe(uri)
    expect(await page.textContent('[data-portico-wc-wallet=metamask]')).toBe('Open MetaMask')
    await h.screenshot(page, 'walletconnect-mobile-links')

    const wallet = await newWallet()
    await wallet.pair(uri)
    // On mobile the signature waits for the user's press (spec part 1 section 4).
    await page.waitForSelector('[data-portico-wallet-status=ready]', { timeout: 30_000 })
    await h.screenshot(page, 'walletconnect-mobile-sign')
    await page.getByRole('button', { name: 'Sign with your wallet' }).click()
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 30_000 })
    expect(await page.textContent('[data-testid=status]')).toBe('logged in')
    expect((await userRecord(page)).wallet.address).toBe(wallet.address)
    expect(errors.filter((e) => !/img-src|Refused to load the image 'data:/.test(e))).toEqual([])
    await context.close()
  })
})
