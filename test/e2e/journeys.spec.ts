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
import { startHarness, type Harness } from './harness'
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

/** The app of this journey: e-mail login, no wallet on login (the user creates them), approvals on (a 'portico-test-apv-' id). */
const EVM_JOURNEY_APP = 'portico-test-apv-journeyA'
JOURNEY_APPS.push(() => ({
  id: EVM_JOURNEY_APP,
  name: 'Portico Journey A',
  logoUrl: null,
  accentColor: '#5b4cdb',
  theme: 'light',
  loginMethods: ['email'],
  legal: { termsAndConditionsUrl: null, privacyPolicyUrl: null, requireUsersAcceptTerms: false },
  allowedOrigins: [],
  embeddedWallets: { createOnLogin: 'off' },
  landingHeader: 'Log in or sign up',
}))

describe('journey: e-mail login, wallet, TOTP, sign, send, receipt', { timeout: 300_000 }, () => {
  const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
  const dialog = (screen: string) => `[role=dialog][data-screen=${screen}]`
  const button = (screen: string, name: string) => `${dialog(screen)} .portico-actions button:has(.portico-button-label:text-is("${name}"))`
  const closed = (page: Page) => page.waitForSelector('[role=dialog]', { state: 'detached' })
  const clearResult = (page: Page) => page.evaluate(() => void (document.querySelector('[data-testid=result]')!.textContent = ''))
  /** The next result line that starts with `prefix` (or 'error'); returns the rest. */
  async function result(page: Page, prefix: string) {
    await page
      .waitForFunction(
      (p) => {
        const t = document.querySelector('[data-testid=result]')?.textContent ?? ''
        return t.startsWith(p) || t.startsWith('error')
      },
        prefix,
        { timeout: 90_000 },
      )
      .catch(async (e) => {
        await h.screenshot(page, 'journey-a-failure')
        throw new Error(`No result '${prefix}' (page errors: ${JSON.stringify(h.consoleErrors(page))}): ${(e as Error).message}`)
      })
    const text = (await page.textContent('[data-testid=result]'))!
    expect(text.startsWith(prefix), text).toBe(true)
    return text.slice(prefix.length).trim()
  }
  async function typeCode(page: Page, code: string) {
    await page.waitForSelector('[role=dialog] .portico-code-box:not([disabled])')
    await page.click('[role=dialog] .portico-code-box >> nth=0')
    await page.keyboard.type(code, { delay: 15 })
  }
  /** × closes the dialog and Escape closes it too (the caller reopens it in between). */
  async function closeWithX(page: Page) {
    await page.click('[role=dialog] [data-portico-close]')
    await closed(page)
  }
  async function closeWithEscape(page: Page) {
    await page.keyboard.press('Escape')
    await closed(page)
  }

  it('adds Solana beside Ethereum, enrols TOTP, signs with one code, sends 0.01 ETH, closes the receipt with × and gets the hash, signs again with no code', async () => {
    // Imported here, not at the top: the other journeys' regions stay free of merge conflicts.
    const OTPAuth = await import('otpauth')
    const { parseEther, verifyMessage } = await import('viem')
    const { totpStepWithMargin } = await import('./totp')
    type Hex = `0x${string}`
    const email = `journey-a-${Date.now().toString(36)}@example.com`
    const page = await h.openPage({ app: EVM_JOURNEY_APP, frame: h.frameUrl!, rpc: s.evm.rpc, svm: s.svm.rpc, erc20: s.contracts.erc20, splMint: s.svm.demoMint })

    // Log in by e-mail: the landing and the code screen are real dialogs; Escape closes the landing.
    await h.openModal(page)
    await expectDialogContained(page)
    await h.screenshot(page, 'journey-a-landing')
    await closeWithEscape(page)
    await h.enterEmailCode(page, email)
    await closed(page)
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged in')

    // Wallets: Ethereum first, then Solana is added on the same HD wallet (not 'already has a
    // wallet'), then a second Solana wallet; the outcome shows beside the buttons.
    const created = (text: string) => page.waitForSelector(`[data-testid=wallet-create-status]:text-is("${text}")`)
    await page.getByRole('button', { name: 'Create Ethereum wallet' }).click()
    await created('Ethereum wallet #0 created')
    await page.getByRole('button', { name: 'Create Solana wallet' }).click()
    await created('Solana wallet #0 created')
    await page.getByRole('button', { name: 'Create Solana wallet' }).click()
    await created('Solana wallet #1 created')
    await page.waitForSelector('[data-testid=wallet-solana] >> nth=1')
    const address = (await page.textContent('[data-testid=wallet-ethereum]')) as Hex
    const user = JSON.parse((await page.textContent('[data-testid=user]'))!) as { linkedAccounts: { type: string; chainType?: string; walletIndex?: number; entropyId?: string }[] }
    const embedded = user.linkedAccounts.filter((a) => a.type === 'wallet')
    expect(embedded.map((a) => `${a.chainType}#${a.walletIndex}`).sort()).toEqual(['ethereum#0', 'solana#0', 'solana#1'])
    // One HD wallet (spec part 2: one entropy, wallets per chain type and index): one entropy id.
    expect(new Set(embedded.map((a) => a.entropyId?.toLowerCase())).size).toBe(1)
    await h.screenshot(page, 'journey-a-wallets')

    // Enrol an authenticator app: every MFA screen is a contained dialog; × closes the intro.
    await page.getByRole('button', { name: 'MFA', exact: true }).click()
    await page.getByRole('heading', { name: 'Add extra security' }).waitFor()
    await expectDialogContained(page)
    await h.screenshot(page, 'journey-a-mfa-intro')
    await closeWithX(page)
    await page.getByRole('button', { name: 'MFA', exact: true }).click()
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.click('[data-mfa-method=totp] button')
    await page.waitForSelector('[data-mfa-totp-enrol] svg.portico-qr-code')
    await expectDialogContained(page)
    await h.screenshot(page, 'journey-a-totp-qr')
    const gen = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(await page.inputValue('[data-mfa-totp-secret]')), digits: 6, period: 30, algorithm: 'SHA1' })
    await page.getByRole('button', { name: 'Continue' }).click()
    await totpStepWithMargin(20_000)
    const enrolStep = Math.floor(Date.now() / 30_000)
    const enrolCode = gen.generate()
    await typeCode(page, enrolCode)
    await page.getByRole('heading', { name: 'Authenticator app verification added' }).waitFor()
    await expectDialogContained(page)
    await page.getByRole('button', { name: 'Done' }).click()
    await closed(page)

    // Sign a message: 'Sign and continue', then one code. The enrolment's code is refused as
    // used (with a text that says so); a fresh one returns the signature, with no loop back to
    // 'Sign and continue'.
    await clearResult(page)
    await page.click('[data-testid=wallet-sign]')
    await page.waitForSelector(`${dialog('approvals-sign')} [data-testid=approvals-message]:text-is("Hello from Portico")`)
    await expectDialogContained(page)
    await h.screenshot(page, 'journey-a-sign')
    await page.click(button('approvals-sign', 'Sign and continue'))
    await page.waitForSelector('[data-mfa-verify][data-mfa-method=totp][data-mfa-status=awaiting-code]')
    await expectDialogContained(page)
    await h.screenshot(page, 'journey-a-verify')
    await typeCode(page, enrolCode)
    await page.waitForSelector('[data-mfa-verify] :text-is("This code has already been used. Wait for a new code.")')
    await h.screenshot(page, 'journey-a-verify-used')
    await page.waitForFunction((t) => Date.now() >= t, (enrolStep + 1) * 30_000, { timeout: 40_000, polling: 250 })
    await typeCode(page, gen.generate())
    await page.waitForSelector(`${dialog('approvals-sign')} .portico-title:text-is("Success!")`)
    const sig1 = (await result(page, 'signature:')) as Hex
    expect(await verifyMessage({ address, message: 'Hello from Portico', signature: sig1 })).toBe(true)
    await closed(page)

    // Send 0.01 ETH on hardhat through the approvals panel (no new code within the window);
    // 'Transaction complete!' closed with ×: the app gets the hash, and the balance fell.
    await s.evm.fund(address, parseEther('1'))
    const before = await s.evm.public.getBalance({ address })
    const recipientBefore = await s.evm.public.getBalance({ address: RECIPIENT })
    await clearResult(page)
    await page.click('[data-testid=apv-send-eth]')
    await page.waitForSelector(`${dialog('approvals-transaction')} [data-testid=approvals-total]:has-text("ETH")`)
    await expectDialogContained(page)
    await h.screenshot(page, 'journey-a-send')
    await page.click(button('approvals-transaction', 'Approve'))
    await page.waitForSelector(`${dialog('approvals-transaction')} .portico-title:text-is("Transaction complete!")`)
    await expectDialogContained(page)
    // A local chain has no explorer: no link to mainnet Etherscan.
    expect(await page.locator(`${dialog('approvals-transaction')} a`).count()).toBe(0)
    await h.screenshot(page, 'journey-a-receipt')
    await closeWithX(page)
    const hash = (await result(page, 'apv sent:')) as Hex
    expect((await s.evm.public.getTransactionReceipt({ hash })).status).toBe('success')
    expect((await s.evm.public.getBalance({ address: RECIPIENT })) - recipientBefore).toBe(parseEther('0.01'))
    expect(before - (await s.evm.public.getBalance({ address })) > parseEther('0.01')).toBe(true)
    expect(await page.locator('[data-mfa-verify]').count()).toBe(0)

    // Sign again within the window: the signature comes back without a code prompt.
    await clearResult(page)
    await page.click('[data-testid=wallet-sign]')
    await page.click(button('approvals-sign', 'Sign and continue'))
    const sig2 = (await result(page, 'signature:')) as Hex
    expect(await verifyMessage({ address, message: 'Hello from Portico', signature: sig2 })).toBe(true)
    await closed(page)

    // A sign request closed with Escape is rejected (4001): nothing was signed.
    await clearResult(page)
    await page.click('[data-testid=wallet-sign]')
    await page.waitForSelector(`${dialog('approvals-sign')} [data-testid=approvals-message]`)
    await closeWithEscape(page)
    expect(await result(page, 'error:')).toMatch(/^4001 /)
    expect(h.consoleErrors(page).filter((e) => !/4001|User rejected|403/.test(e))).toEqual([])
  })
})
// endregion

// region: recovery-new-device (password backup → second browser → MFA → recover → sign)
// endregion

// region: passkey-wallet-export (passkey sign-up → wallet → export)
// endregion

// region: funding (fund own wallet from each method; Solana send twice)
// endregion

describe('journeys set-up', () => {
  it('serves the app, the frame and the local chains', async () => {
    expect(h.frameUrl).toMatch(/^http:\/\//)
    expect(await s.evm.public.getChainId()).toBe(31337)
  })
})
