/**
 * Long user journeys (issue 25): features combined as a real user combines them within minutes,
 * in Chromium against the real server, the wallet frame on its own origin, the local EVM node
 * (hardhat), the SVM stand-in (litesvm) and the funding stand-ins (MoonPay, Coinbase Onramp,
 * the bridge provider, the price source). One harness for the whole file; each journey is one
 * test and uses fresh users, so the journeys do not depend on one another.
 *
 * Every dialog met on the way is closable with × and Escape and keeps focus inside
 * (`expectDialogContained`). Screenshots of each screen go to test/artifacts/journey-*.png.
 *
 * Layout of this file: the shared set-up, then one region per journey. A journey adds the
 * apps it needs to `JOURNEY_APPS` at module level (the set-up passes them to the harness).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { serve } from '@hono/node-server'
import { startEvm, type Evm } from '../chains/evm'
import { startSvm, type Svm } from '../chains/svm'
import { deployTestContracts, type TestContracts } from '../chains/contracts'
import { startHarness, APPS, type Harness } from './harness'
import { privateKeyToAccount } from 'viem/accounts'
import type { Hex } from 'viem'
import { DEV_COINBASE_PUBLIC_JWK, DEV_FUNDING } from '../../examples/server/src/funding-config'
import { createMoonPayStandIn } from '../../examples/stand-ins/moonpay/server'
import { createCoinbaseStandIn } from '../../examples/stand-ins/coinbase/server'
import { createBridgeStandIn } from '../../examples/stand-ins/bridge/server'
import { createPriceStandIn } from '../../examples/stand-ins/price/handler'

// ---------------------------------------------------------------------------------------------
// Shared set-up
// ---------------------------------------------------------------------------------------------

/** URLs of the local services, known once the set-up ran. */
export interface JourneyServices {
  evm: Evm
  svm: Svm
  contracts: TestContracts
  moonpay: string
  coinbase: string
  bridge: string
  price: string
}
/** An app a journey needs: built from the app page's origin and the services' URLs. */
type JourneyApp = (origin: string, s: JourneyServices) => Record<string, unknown>
const JOURNEY_APPS: JourneyApp[] = []

let h: Harness
let s: JourneyServices
const closers: (() => void)[] = []
const env = { ...process.env }

async function listen(fetch: (r: Request) => Response | Promise<Response>): Promise<string> {
  const server = serve({ fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())))
  closers.push(() => server.close())
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`
}

beforeAll(async () => {
  const [evm, svm] = await Promise.all([startEvm(), startSvm()])
  const contracts = await deployTestContracts(evm)
  const moonpayStandIn = createMoonPayStandIn({
    keys: { [DEV_FUNDING.moonpay.apiKey]: DEV_FUNDING.moonpay.secretKey, [DEV_FUNDING.moonpay.sandboxApiKey]: DEV_FUNDING.moonpay.sandboxSecretKey },
  })
  const coinbaseStandIn = createCoinbaseStandIn({ keys: { [DEV_FUNDING.coinbase.apiKeyName]: { ...DEV_COINBASE_PUBLIC_JWK } }, projectId: DEV_FUNDING.coinbase.projectId })
  const [moonpay, coinbase, bridge, price] = await Promise.all([
    listen(moonpayStandIn.app.fetch),
    listen(coinbaseStandIn.app.fetch),
    listen(createBridgeStandIn().app.fetch),
    listen(createPriceStandIn().fetch),
  ])
  s = { evm, svm, contracts, moonpay, coinbase, bridge, price }
  // The reference server reads these when it is built.
  process.env.PORTICO_PRICE_URL = price
  process.env.PORTICO_SOLANA_RPC_URLS = JSON.stringify({ localnet: svm.rpc })
  process.env.PORTICO_SPL_TOKENS = JSON.stringify({ [svm.demoMint]: 'USDC' })
  h = await startHarness({
    walletFrame: true,
    csp: { connectSrc: [evm.rpc, svm.rpc, moonpay, bridge, price] },
    limits: { resendCooldownS: 0 },
    extraApps: (origin) => JOURNEY_APPS.map((app) => app(origin, s)),
  })
}, 180_000)
afterAll(async () => {
  process.env = env
  await h?.close()
  s?.evm.stop()
  s?.svm.stop()
  for (const c of closers) c()
})

/**
 * The dialog is a real dialog: focus is inside it, Tab keeps it inside, and it has a close
 * button labelled 'Close'. Call on every screen a journey meets.
 */
export async function expectDialogContained(page: Page): Promise<void> {
  const dialog = page.locator('[role=dialog]')
  await dialog.waitFor()
  const inside = () => page.evaluate(() => !!document.activeElement && !!document.querySelector('[role=dialog]')?.contains(document.activeElement))
  await page.waitForFunction(() => !!document.activeElement && !!document.querySelector('[role=dialog]')?.contains(document.activeElement))
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab')
    expect(await inside()).toBe(true)
  }
}

// ---------------------------------------------------------------------------------------------
// Journeys (one region each; keep edits inside your region)
// ---------------------------------------------------------------------------------------------

// region: evm-wallet-totp (e-mail login → wallet → TOTP enrol → sign → send → close receipt)
// endregion

// region: recovery-new-device (password backup → second browser → MFA → recover → sign)
// endregion

// region: passkey-wallet-export (passkey sign-up → wallet → export)
// One site, as `npm start` serves the demo: the page, the API and the wallet frame all on
// http://localhost (WebAuthn needs a domain; a same-site frame keeps its storage). The shared
// harness keeps its frame on 127.0.0.1 for the other journeys, so this one has its own.
describe('journey: passkey sign-up, wallet, export', { timeout: 180_000 }, () => {
  let site: Harness
  beforeAll(async () => {
    site = await startHarness({ walletFrame: true, frameHost: 'localhost', csp: { connectSrc: [s.evm.rpc] } })
  }, 180_000)
  afterAll(async () => {
    await site?.close()
  })

  const dialog = (page: Page) => page.locator('[role=dialog]')
  const screenId = (page: Page) => dialog(page).getAttribute('data-screen')
  /** Close the dialog with × or Escape and wait until it is gone. */
  async function closeWith(page: Page, how: 'x' | 'Escape') {
    if (how === 'x') await dialog(page).getByRole('button', { name: 'Close', exact: true }).click()
    else await page.keyboard.press('Escape')
    await dialog(page).waitFor({ state: 'detached' })
  }
  /** The export page inside the export dialog (the key is shown there, never in the host page). */
  async function exportFrame(page: Page) {
    await page.waitForSelector('[role=dialog][data-screen=wallet-export] iframe[data-testid=wallet-export-frame]')
    await page.waitForFunction(() => !!document.querySelector('iframe[data-testid=wallet-export-frame]'))
    for (;;) {
      const f = page.frames().find((x) => x.url().includes('/embedded-wallets/export'))
      if (f) return f
      await page.waitForEvent('framenavigated')
    }
  }

  it('signs up with a passkey at localhost, gets a wallet, exports its key inside the export frame', async () => {
    expect(new URL(site.frameUrl!).hostname).toBe('localhost')
    const page = await site.openPage(
      { app: APPS.demo, api: site.localApiUrl, frame: site.frameUrl!, rpc: s.evm.rpc, createOnLogin: 'users-without-wallets', createdMs: '4000' },
      { host: 'localhost' },
    )
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('WebAuthn.enable', { enableUI: false })
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    })

    // The landing: contained, Escape closes it; 'More options' lists the passkey; × closes that view.
    await site.openModal(page)
    await expectDialogContained(page)
    await site.screenshot(page, 'journey-passkey-landing')
    await closeWith(page, 'Escape')
    await site.openModal(page)
    await page.click('[role=dialog] [data-method=more-options]')
    await page.waitForSelector('[data-portico-overflow] [data-method=passkey]')
    await expectDialogContained(page)
    await closeWith(page, 'x')

    // The passkey choice: contained, × and Escape close it (nothing created).
    for (const how of ['x', 'Escape'] as const) {
      await site.openModal(page)
      await page.click('[role=dialog] [data-method=more-options]')
      await page.click('[data-portico-overflow] [data-method=passkey]')
      await page.getByRole('button', { name: 'Create new account' }).waitFor()
      await expectDialogContained(page)
      if (how === 'x') await site.screenshot(page, 'journey-passkey-choose')
      await closeWith(page, how)
    }
    expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials).toHaveLength(0)
    expect(await page.textContent('[data-testid=status]')).toBe('logged out')

    // Sign up: the passkey is made for 'localhost'; the wallet is created on login.
    await site.openModal(page)
    await page.click('[role=dialog] [data-method=more-options]')
    await page.click('[data-portico-overflow] [data-method=passkey]')
    await page.getByRole('button', { name: 'Create new account' }).click()
    await page.waitForFunction(() => document.querySelector('[role=dialog]')?.getAttribute('data-screen') === 'embedded-wallet-create', undefined, { timeout: 60_000 })
    // The creation screen keeps focus inside; it closes by itself (it cannot be closed while creating).
    await expectDialogContained(page)
    await site.screenshot(page, 'journey-passkey-wallet-created')
    await dialog(page).waitFor({ state: 'detached', timeout: 60_000 })
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged in')
    await page.waitForFunction(() => document.querySelector('[data-testid=result]')?.textContent === 'complete: passkey (new user)')
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
    expect(credentials).toHaveLength(1)
    expect(credentials[0].rpId).toBe('localhost')
    await page.waitForFunction(
      () => document.querySelector('[data-testid=wallet-status]')?.textContent === 'connected' && /^0x[0-9a-fA-F]{40}$/.test(document.querySelector('[data-testid=wallet-ethereum]')?.textContent ?? ''),
      undefined,
      { timeout: 60_000 },
    )
    const address = (await page.textContent('[data-testid=wallet-ethereum]'))!.trim()
    // The frame is this site's own: a first-party frame keeps its storage.
    const frame = page.frames().find((f) => f.url().startsWith(`${site.frameUrl}/apps/`))
    expect(frame, 'the wallet frame on http://localhost').toBeTruthy()

    // Export: the dialog is contained and Escape closes it, also with focus inside the export
    // page (another document: its key events never reach the host's dialog; it reports Escape) …
    await page.waitForSelector('[data-testid=export-wallet]')
    await page.click('[data-testid=export-wallet]')
    const first = await exportFrame(page)
    await expectDialogContained(page)
    await first.waitForSelector('[data-testid=export-copy]', { timeout: 30_000 })
    await first.focus('[data-testid=export-copy]')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('wallet-export-frame')
    await closeWith(page, 'Escape')

    // … and again: the key appears inside the export frame only, it is the wallet's, × closes.
    await page.click('[data-testid=export-wallet]')
    const ef = await exportFrame(page)
    expect(new URL(ef.url()).origin).toBe(site.frameUrl)
    expect(ef.url()).not.toMatch(/token|eyJ/i)
    const secret = (await (await ef.waitForSelector('[data-testid=export-secret]', { timeout: 30_000 })).textContent())!
    expect(secret).toMatch(/^0x[0-9a-f]{64}$/)
    expect(privateKeyToAccount(secret as Hex).address).toBe(address)
    const hostText = await page.evaluate(() => document.documentElement.outerHTML + document.body.innerText)
    expect(hostText.toLowerCase()).not.toContain(secret.slice(2).toLowerCase())
    expect(await page.evaluate(() => (document.querySelector('iframe[data-testid=wallet-export-frame]') as HTMLIFrameElement).contentDocument)).toBeNull()
    await expectDialogContained(page)
    await site.screenshot(page, 'journey-passkey-export')
    await closeWith(page, 'x')
    expect(await screenId(page).catch(() => null)).toBeNull()
    expect(site.consoleErrors(page).filter((e) => /Content Security Policy|pageerror/i.test(e))).toEqual([])
  })
})
// endregion

// region: funding (fund own wallet from each method; Solana send twice)
// endregion

describe('journeys set-up', () => {
  it('serves the app, the frame and the local chains', async () => {
    expect(h.frameUrl).toMatch(/^http:\/\//)
    expect(await s.evm.public.getChainId()).toBe(31337)
  })
})
