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
import { parseEther } from 'viem'
import { generatePrivateKey } from 'viem/accounts'
import { installEthereumWallet } from './wallets/ethereum'
import type { Page } from 'playwright-core'
import { startEvm, type Evm } from '../chains/evm'
import { startSvm, type Svm } from '../chains/svm'
import { deployTestContracts, type TestContracts } from '../chains/contracts'
import { startHarness, APPS, type Harness, listenLocal } from './harness'
import { privateKeyToAccount } from 'viem/accounts'
import type { Hex } from 'viem'
import { DEV_COINBASE_PUBLIC_JWK, DEV_FUNDING } from '../../examples/server/src/funding-config'
import { createMoonPayStandIn } from '../../examples/stand-ins/moonpay/server'
import { createCoinbaseStandIn } from '../../examples/stand-ins/coinbase/server'
import { createBridgeStandIn } from '../../examples/stand-ins/bridge/server'
import { createPriceStandIn } from '../../examples/stand-ins/price/handler'
import { localDelivery } from '../../examples/stand-ins/local-delivery'
// journey: recovery-new-device
import * as OTPAuth from 'otpauth'
import { verifyMessage } from 'viem'
import { nextTotpStep, totpStepWithMargin } from './totp'

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

const listen = (fetch: (r: Request) => Response | Promise<Response>) => listenLocal(fetch, closers)

beforeAll(async () => {
  const [evm, svm] = await Promise.all([startEvm(), startSvm()])
  const contracts = await deployTestContracts(evm)
  // A completed purchase is delivered on the local chains (ETH on hardhat, SOL on the SVM), as npm start's stand-ins do.
  const deliver = localDelivery({ evmRpc: evm.rpc, svmRpc: svm.rpc, log: () => {} })
  const moonpayStandIn = createMoonPayStandIn({
    keys: { [DEV_FUNDING.moonpay.apiKey]: DEV_FUNDING.moonpay.secretKey, [DEV_FUNDING.moonpay.sandboxApiKey]: DEV_FUNDING.moonpay.sandboxSecretKey },
    deliver,
  })
  const coinbaseStandIn = createCoinbaseStandIn({ keys: { [DEV_FUNDING.coinbase.apiKeyName]: { ...DEV_COINBASE_PUBLIC_JWK } }, projectId: DEV_FUNDING.coinbase.projectId, deliver })
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
    const { nextTotpStep, totpStepWithMargin } = await import('./totp')
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
    // A fresh code: the next step's (inside the server's window now; no wait for the clock).
    await typeCode(page, gen.generate({ timestamp: (await nextTotpStep(enrolStep)) * 30_000 }))
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
describe('journey: password backup, second browser, MFA, recover, sign', { timeout: 300_000 }, () => {
  const APP = 'portico-demo-app-00000001'
  const password = 'Journey-horse-42'
  const dialog = (page: Page) => page.locator('[role=dialog]')
  const action = (page: Page, name: string) => dialog(page).locator('.portico-button', { hasText: name })
  const closeX = (page: Page) => dialog(page).getByRole('button', { name: 'Close', exact: true }).first()
  const open = (more: Record<string, string> = {}) => h.openPage({ app: APP, frame: h.frameUrl!, rpc: s.evm.rpc, createOnLogin: 'all-users', ...more })
  const result = (page: Page) => page.textContent('[data-testid=result]')
  /** The next result line different from `before`. */
  const nextResult = async (page: Page, before: string | null) => {
    await page.waitForFunction((old) => {
      const t = document.querySelector('[data-testid=result]')?.textContent ?? ''
      return !!t && t !== old
    }, before)
    return (await result(page))!
  }
  async function typeCode(page: Page, code: string) {
    await page.waitForSelector('[role=dialog] .portico-code-box:not([disabled])')
    await page.click('[role=dialog] .portico-code-box >> nth=0')
    await page.keyboard.type(code, { delay: 15 })
  }

  it('backs up with a password, enrols TOTP, and on a second browser verifies, recovers and signs', async () => {
    const email = `journey-rcv-${Date.now().toString(36)}@example.com`

    // 1. E-mail login on the first browser: the embedded wallet is created and connected.
    const page = await open()
    await h.enterEmailCode(page, email)
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 60_000 })
    await page.waitForFunction(() => document.querySelector('[data-testid=wallet-status]')?.textContent === 'connected')
    const address = (await page.textContent('[data-testid=wallet-ethereum]')) as `0x${string}`

    // 2. Back up wallet: the selection closes with Escape, then with ×.
    let before = await result(page)
    await page.click('[data-testid=wallet-recovery]')
    await dialog(page).getByText('Secure your account').waitFor()
    await expectDialogContained(page)
    await page.keyboard.press('Escape')
    await dialog(page).waitFor({ state: 'detached' })
    expect(await nextResult(page, before)).toBe('recovery: User exited the update flow.')
    await page.click('[data-testid=wallet-recovery]')
    await dialog(page).getByText('Secure your account').waitFor()
    await closeX(page).click()
    await dialog(page).waitFor({ state: 'detached' })

    // ... then Password and its four steps; Set Password completes (the spinner ends in 'Success').
    before = await result(page)
    await page.click('[data-testid=wallet-recovery]')
    await dialog(page).locator('[data-method=user-passcode]').click()
    await dialog(page).getByText('Create a password').waitFor()
    await expectDialogContained(page)
    await dialog(page).getByLabel('Password', { exact: true }).fill(password)
    await action(page, 'Continue').click()
    await dialog(page).getByText('Save your password').waitFor()
    await expectDialogContained(page)
    await action(page, 'Continue').click()
    await dialog(page).getByLabel('Confirm password').fill(password)
    await expectDialogContained(page)
    await action(page, 'Continue').click()
    await dialog(page).getByRole('checkbox').check()
    await expectDialogContained(page)
    await h.screenshot(page, 'journey-recovery-set-password')
    await action(page, 'Set Password').click()
    await dialog(page).getByText('Success', { exact: true }).waitFor({ timeout: 30_000 })
    await expectDialogContained(page)
    await h.screenshot(page, 'journey-recovery-password-success')
    await closeX(page).click()
    await dialog(page).waitFor({ state: 'detached' })
    expect(await nextResult(page, before)).toBe('recovery: set')
    const user = JSON.parse((await page.textContent('[data-testid=user]'))!) as { linkedAccounts: { type: string; walletClientType?: string; recoveryMethod?: string }[] }
    expect(user.linkedAccounts.filter((a) => a.type === 'wallet' && a.walletClientType === 'privy').map((a) => a.recoveryMethod)).toEqual(['user-passcode', 'user-passcode'])

    // 3. Enrol an authenticator app (the intro closes with Escape first).
    await page.getByRole('button', { name: 'MFA', exact: true }).click()
    await dialog(page).waitFor()
    await expectDialogContained(page)
    await page.keyboard.press('Escape')
    await dialog(page).waitFor({ state: 'detached' })
    await page.getByRole('button', { name: 'MFA', exact: true }).click()
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.click('[data-mfa-method=totp] button')
    await page.waitForSelector('[data-mfa-totp-enrol] svg.portico-qr-code')
    await expectDialogContained(page)
    const gen = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(await page.inputValue('[data-mfa-totp-secret]')), digits: 6, period: 30, algorithm: 'SHA1' })
    /** A code of a 30 s step after the last one used (the server refuses a step used already). */
    let lastStep = 0
    const nextCode = async () => {
      lastStep = await nextTotpStep(lastStep)
      return gen.generate({ timestamp: lastStep * 30_000 })
    }
    await page.getByRole('button', { name: 'Continue' }).click()
    await totpStepWithMargin()
    lastStep = Math.floor(Date.now() / 30_000) - 1
    await typeCode(page, gen.generate({ timestamp: Date.now() - 30_000 }))
    await page.getByRole('heading', { name: 'Authenticator app verification added' }).waitFor()
    await expectDialogContained(page)
    await page.getByRole('button', { name: 'Done' }).click()
    await dialog(page).waitFor({ state: 'detached' })

    // 4. A second browser (fresh storage: no device share), the same address.
    const page2 = await open()
    // The page loads the wallet frame ahead (as an app that warms it does): at login the frame
    // answers at once that this device has no share, so the MFA prompt comes while the login's
    // modal still shows, the case that used to close the prompt with that modal.
    await page2.evaluate(() => (window as unknown as { portico: { plugin(id: string): { frame(): Promise<unknown> } } }).portico.plugin('embedded-wallet').frame().then(() => true))
    await h.enterEmailCode(page2, email)
    // MFA first: the prompt stays until the user acts.
    await page2.waitForSelector('[data-mfa-verify][data-mfa-method=totp][data-mfa-status=awaiting-code]', { timeout: 60_000 })
    await expectDialogContained(page2)
    await h.screenshot(page2, 'journey-recovery-new-device-mfa')
    // The login has completed (its modal closed) and the prompt is still there (it used to vanish with it).
    await page2.waitForFunction(() => document.querySelector('[data-testid=result]')?.textContent === 'complete: email')
    expect(await page2.locator('[role=dialog][data-screen=mfa-verify] [data-mfa-verify]').count()).toBe(1)
    expect(await page2.textContent('[data-testid=wallet-status]')).toBe('recovering')
    // Escape closes it: the wallet waits for recovery. A reload asks again.
    await page2.keyboard.press('Escape')
    await dialog(page2).waitFor({ state: 'detached' })
    await page2.waitForFunction(() => document.querySelector('[data-testid=wallet-status]')?.textContent === 'needs-recovery')
    await page2.reload()
    await page2.waitForSelector('[role=dialog][data-screen=mfa-verify] [data-mfa-verify][data-mfa-status=awaiting-code]', { timeout: 60_000 })
    await expectDialogContained(page2)
    await typeCode(page2, await nextCode())

    // 5. Then the password recovery.
    await dialog(page2).getByText('Enter your password').waitFor({ timeout: 30_000 })
    await expectDialogContained(page2)
    await closeX(page2).waitFor()
    await h.screenshot(page2, 'journey-recovery-new-device-password')
    await dialog(page2).getByLabel('Password', { exact: true }).fill(password)
    await action(page2, 'Recover your account').click()
    await dialog(page2).waitFor({ state: 'detached', timeout: 30_000 })
    await page2.waitForFunction(() => document.querySelector('[data-testid=wallet-status]')?.textContent === 'connected')
    expect(await page2.textContent('[data-testid=wallet-ethereum]')).toBe(address)

    // 6. Sign through the approval screen: 'Sign and continue', a code if the server asks again
    // (the recovery's verification usually still covers it), then the signature verifies against
    // the same address and the approval closes by itself.
    before = await result(page2)
    await page2.click('[data-testid=wallet-sign]')
    const approval = page2.locator('[role=dialog][data-screen=approvals-sign]')
    await approval.locator('[data-testid=approvals-message]').getByText('Hello from Portico', { exact: true }).waitFor({ timeout: 60_000 })
    await expectDialogContained(page2)
    await approval.getByRole('button', { name: 'Sign and continue' }).click()
    const mfaAgain = page2.locator('[data-mfa-verify][data-mfa-status=awaiting-code]')
    const next = await Promise.race([
      approval.locator('.portico-title').getByText('Success!', { exact: true }).waitFor({ timeout: 60_000 }).then(() => 'signed' as const),
      mfaAgain.waitFor({ timeout: 60_000 }).then(() => 'mfa' as const),
    ])
    if (next === 'mfa') {
      await expectDialogContained(page2)
      await h.screenshot(page2, 'journey-recovery-new-device-sign-mfa')
      await typeCode(page2, await nextCode())
    }
    const line = await nextResult(page2, before)
    expect(line).toMatch(/^signature: 0x/)
    const signature = line.slice('signature: '.length) as `0x${string}`
    expect(await verifyMessage({ address, message: 'Hello from Portico', signature })).toBe(true)
    await page2.locator('[data-testid=result]').scrollIntoViewIfNeeded()
    await h.screenshot(page2, 'journey-recovery-new-device-signed')
  })
})
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
const FUNDING_JOURNEY_APP = 'i25-journey-funding-00001'
JOURNEY_APPS.push((origin, sv) => ({
  id: FUNDING_JOURNEY_APP,
  name: 'Journey: funding',
  loginMethods: ['email'],
  allowedOrigins: [origin],
  embeddedWallets: { createOnLogin: 'users-without-wallets' },
  funding: {
    methods: ['card', 'exchange', 'wallet', 'manual'],
    crossChainBridgingEnabled: false,
    moonpay: { useSandbox: true, widgetUrl: sv.moonpay, sandboxWidgetUrl: sv.moonpay, apiUrl: sv.moonpay, sandboxApiUrl: sv.moonpay },
    coinbase: { apiUrl: sv.coinbase, payUrl: sv.coinbase },
    bridge: { apiUrl: sv.bridge, testnetApiUrl: sv.bridge },
  },
}))

describe('journey: fund own wallet, Solana send twice', { timeout: 240_000 }, () => {
  const SOL_RECIPIENT = 'HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH'
  const dialog = (screen: string) => `[role=dialog][data-screen=${screen}]`
  const title = (text: string) => `[role=dialog] .portico-title:text-is(${JSON.stringify(text)})`
  const own = (screen: string, name: string) => `${dialog(screen)} .portico-actions button:has(.portico-button-label:text-is("${name}"))`
  const shot = (page: Page, name: string) => h.screenshot(page, `journey-funding-${name}`)
  const result = async (page: Page, prefix: string) => {
    await page.waitForFunction((p) => (document.querySelector('[data-testid=result]')?.textContent ?? '').startsWith(p), prefix, { timeout: 60_000 }).catch(async (e) => {
      throw new Error(`result: ${await page.textContent('[data-testid=result]')} (wanted ${prefix}): ${e}`)
    })
    return (await page.textContent('[data-testid=result]'))!.slice(prefix.length).trim()
  }
  const clearResult = (page: Page) => page.evaluate(() => void (document.querySelector('[data-testid=result]')!.textContent = ''))
  const closed = (page: Page) => page.waitForSelector('[role=dialog]', { state: 'detached' })
  const fundingRequest = (page: Page) =>
    page.evaluate(() => (window as unknown as { portico: { plugin(id: string): { state: { get(): { request: Record<string, unknown> | null } } } } }).portico.plugin('funding').state.get().request)

  it('e-mail login → embedded wallets → Add funds from an insufficient-funds confirm, then send → fund own wallet by transfer, MoonPay and Coinbase → Solana Receive → the same SOL transfer twice', async () => {
    const { evm, svm } = s
    // The user also has a browser wallet (MetaMask-like, EIP-6963) with ETH: installed before the page's scripts run.
    const context = await h.newContext()
    const page = await context.newPage()
    const errors: string[] = []
    page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())))
    page.on('pageerror', (e) => void errors.push(`pageerror: ${e.message}`))
    const browserWallet = await installEthereumWallet(page, { rpc: evm.rpc, privateKey: generatePrivateKey() })
    await evm.fund(browserWallet.address, parseEther('1'))
    const q = new URLSearchParams({ app: FUNDING_JOURNEY_APP, api: h.apiUrl, frame: h.frameUrl!, rpc: evm.rpc, evmRpc: evm.rpc, svm: svm.rpc, approvals: '1', createOnLogin: 'users-without-wallets' })
    await page.goto(`${h.appUrl}/?${q}`)
    await h.waitReady(page)
    // Before login there is no wallet to fund: the panel says so, and funds nobody's address by default.
    expect(await page.textContent('[data-testid=fund-no-wallet]')).toBe('Log in to fund your wallet, or type an address.')
    expect(await page.isDisabled('[data-testid=fund-local]')).toBe(true)
    expect(await page.inputValue('[data-testid=fund-address]')).toBe('')
    await h.enterEmailCode(page, `journey-fund-${Date.now().toString(36)}@example.com`)
    await closed(page)
    await page.waitForSelector('[data-testid=wallet-ethereum]')
    await page.waitForSelector('[data-testid=wallet-solana]')
    await page.waitForFunction(() => document.querySelector('[data-testid=wallet-status]')?.textContent === 'connected')
    const eth = (await page.textContent('[data-testid=wallet-ethereum]')) as `0x${string}`
    const sol = (await page.textContent('[data-testid=wallet-solana]'))!
    // The funding panel pays the user's own wallets, one per chain (it defaulted to a hardhat dev account).
    expect(await page.inputValue('[data-testid=fund-address]')).toBe(eth)
    expect(await page.inputValue('[data-testid=fund-solana-address]')).toBe(sol)
    expect(await page.$('[data-testid=fund-no-wallet]')).toBeNull()
    await page.locator('[data-testid=funding-demo]').scrollIntoViewIfNeeded()
    await shot(page, 'panel')

    // 1. Sending with an empty wallet: 'Add funds' opens funding for this wallet on this chain (it threw a TypeError).
    await clearResult(page)
    await page.click('[data-testid=apv-send-eth]')
    await page.waitForSelector(`${dialog('approvals-transaction')} [data-testid=approvals-insufficient]:text-is("Add funds on Hardhat to complete transaction.")`)
    await expectDialogContained(page)
    await shot(page, 'insufficient')
    await page.click(own('approvals-transaction', 'Add funds'))
    await page.waitForSelector(`${dialog('funding-methods')} [data-method=funding-manual]`)
    expect(await fundingRequest(page)).toMatchObject({ address: eth, chainType: 'ethereum', network: 'Hardhat', symbol: 'ETH', chain: { id: 31337, rpcUrls: { default: { http: [evm.rpc] } } } })
    await expectDialogContained(page)
    await shot(page, 'add-funds')
    // Funding runs inside the transaction: Receive (the user's own address), a dev account sends what is
    // missing, Continue leads back to the transaction, which now has the funds and is sent.
    const missing = String((await fundingRequest(page))!.amount)
    await page.click('[data-method=funding-manual]')
    await page.waitForSelector(`${dialog('funding-manual')} [role=status][data-funding-watching]`)
    expect(await page.textContent('[data-funding-address]')).toBe(eth)
    await evm.fund(eth, parseEther(missing))
    await page.click(`${dialog('funding-manual')} button:has-text("Continue")`, { timeout: 30_000 })
    await page.waitForSelector(own('approvals-transaction', 'Approve'), { timeout: 30_000 })
    await expectDialogContained(page)
    await shot(page, 'funded-confirm')
    await page.click(own('approvals-transaction', 'Approve'))
    await page.waitForSelector(title('Transaction complete!'), { timeout: 60_000 })
    await page.click(own('approvals-transaction', 'All Done'))
    const sent = await result(page, 'apv sent:')
    expect(sent).toMatch(/^0x[0-9a-f]{64}$/)
    expect((await evm.public.getTransactionReceipt({ hash: sent as `0x${string}` })).status).toBe('success')
    await closed(page)

    // The same for Solana: the Solana wallet on the local cluster.
    await clearResult(page)
    await page.click('[data-testid=apv-send-sol]')
    await page.waitForSelector(`${dialog('approvals-solana-transaction')} [data-testid=approvals-insufficient]`)
    await page.click(own('approvals-solana-transaction', 'Add funds'))
    await page.waitForSelector(`${dialog('funding-methods')} [data-method=funding-manual]`)
    expect(await fundingRequest(page)).toMatchObject({ address: sol, chainType: 'solana', symbol: 'SOL', network: 'Localnet', cluster: { name: 'localnet', rpcUrl: svm.rpc } })
    await page.click('[role=dialog] [data-portico-close]')
    await closed(page)

    // 2. Receive on the local chain: the user's own address; a dev account sends; Continue.
    const ethBalance = () => evm.public.getBalance({ address: eth })
    const start = await ethBalance()
    await clearResult(page)
    await page.click('[data-testid=fund-local]')
    await page.waitForSelector(`${dialog('funding-methods')} [data-method=funding-manual]`)
    // Coinbase cannot fund the local chain: a clear text, not 'Unsupported chainId: 31337 for Coinbase Onramp'.
    expect(await page.textContent('[data-unsupported=coinbase-onramp]')).toBe('Coinbase is not available on Hardhat.')
    await expectDialogContained(page)
    await shot(page, 'methods')
    await page.click('[data-method=funding-manual]')
    await page.waitForSelector(title('Receive 0.05 ETH'))
    expect(await page.textContent('[data-funding-address]')).toBe(eth)
    await page.waitForSelector('[role=dialog] [role=status][data-funding-watching]')
    await expectDialogContained(page)
    await shot(page, 'receive-eth')
    await evm.fund(eth, parseEther('0.05'))
    await page.click(`${dialog('funding-manual')} button:has-text("Continue")`, { timeout: 30_000 })
    expect(await result(page, 'funding:')).toBe('completed (manual)')
    expect((await ethBalance()) - start).toBe(parseEther('0.05'))

    // 3. MoonPay (its stand-in delivers on the local chain): the user's wallet receives it.
    await clearResult(page)
    await page.click('[data-testid=fund-local]')
    await page.waitForSelector(`${dialog('funding-methods')} [data-method=moonpay]`)
    const [moonpay] = await Promise.all([page.waitForEvent('popup'), page.click('[data-method=moonpay]')])
    await moonpay.waitForSelector('button:text-is("Complete purchase")')
    expect(new URL(moonpay.url()).searchParams.get('walletAddress')).toBe(eth)
    await moonpay.click('button:text-is("Complete purchase")')
    await moonpay.waitForSelector('h1:text-matches("Transaction")')
    await moonpay.close()
    await page.waitForSelector(title("You've funded your account!"), { timeout: 30_000 })
    await expectDialogContained(page)
    await shot(page, 'moonpay-funded')
    await page.click(`${dialog('moonpay-status')} button:has-text("Continue")`)
    expect(await result(page, 'funding:')).toMatch(/^completed/)
    expect((await ethBalance()) - start).toBe(parseEther('0.1'))

    // 3b. From the browser wallet: it sends to the user's embedded wallet.
    await clearResult(page)
    await page.click('[data-testid=fund-local]')
    await page.waitForSelector(`${dialog('funding-methods')} [data-method=funding-wallet]`)
    await page.click('[data-method=funding-wallet]')
    await page.waitForSelector(`${dialog('funding-wallets')} [data-method="eip6963:io.metamask"]`)
    await expectDialogContained(page)
    await shot(page, 'from-wallet')
    await page.click('[data-method="eip6963:io.metamask"]')
    await page.waitForSelector(title('Transfer complete'), { timeout: 30_000 })
    expect(await result(page, 'funding:')).toBe('completed (wallet)')
    expect((await ethBalance()) - start).toBe(parseEther('0.15'))
    await closed(page)

    // 4. Solana: Receive shows the Solana address (not 0x…) and watches the local cluster.
    const solBalance = () => svm.balance(sol)
    await clearResult(page)
    await page.click('[data-testid=fund-solana]')
    await page.waitForSelector(`${dialog('funding-methods')} [data-method=funding-manual]`)
    await page.click('[data-method=funding-manual]')
    await page.waitForSelector(title('Receive 0.1 SOL'))
    expect(await page.textContent('[data-funding-address]')).toBe(sol)
    expect(await page.textContent('[role=dialog] .portico-description')).toBe('Scan the code or copy the address to send SOL on Localnet.')
    await page.waitForSelector('[role=dialog] [role=status][data-funding-watching]')
    await expectDialogContained(page)
    await shot(page, 'receive-sol')
    await svm.airdrop(sol, 100_000_000n)
    await page.click(`${dialog('funding-manual')} button:has-text("Continue")`, { timeout: 30_000 })
    expect(await result(page, 'funding:')).toBe('completed (manual)')
    expect(await solBalance()).toBe(100_000_000)

    // 5. Coinbase on Solana (its stand-in airdrops on the local SVM): the user's Solana wallet receives it.
    await clearResult(page)
    await page.click('[data-testid=fund-solana]')
    await page.waitForSelector(`${dialog('funding-methods')} [data-method=coinbase-onramp]`)
    const [coinbase] = await Promise.all([page.waitForEvent('popup'), page.click('[data-method=coinbase-onramp]')])
    await coinbase.waitForSelector('button:text-is("Complete purchase")')
    expect(await coinbase.textContent('p code')).toBe(sol)
    await page.waitForSelector(dialog('coinbase-onramp-status'))
    await coinbase.click('button:text-is("Complete purchase")')
    await coinbase.waitForSelector('h1:text-is("Purchase complete")')
    await coinbase.close()
    await page.waitForSelector(title("You've funded your account!"), { timeout: 30_000 })
    await expectDialogContained(page)
    await shot(page, 'coinbase-funded')
    await page.click(`${dialog('coinbase-onramp-status')} button:has-text("Continue")`)
    expect(await result(page, 'funding:')).toMatch(/^completed/)
    expect(await solBalance()).toBe(200_000_000)

    // 6. The same SOL transfer twice: both land, with two signatures (the local cluster's blockhash advances).
    // The second waits on its confirm screen until its blockhash expired: a clear error with the code, focus
    // kept in the dialog, and Retry sends it with a fresh blockhash.
    const before = await svm.balance(SOL_RECIPIENT)
    const signatures: string[] = []
    for (let i = 0; i < 2; i++) {
      await clearResult(page)
      await page.click('[data-testid=apv-send-sol]')
      await page.waitForSelector(`${dialog('approvals-solana-transaction')} [data-testid=approvals-sol-amount]:text-is("0.01 SOL")`)
      await expectDialogContained(page)
      if (i === 0) await shot(page, 'send-sol')
      if (i === 1) {
        await svm.call('standIn_advanceSlots', [151])
        await page.focus(own('approvals-solana-transaction', 'Approve'))
        await page.keyboard.press('Enter')
        await page.waitForSelector(`${dialog('approvals-solana-transaction')} [data-testid=approvals-error-code]:text-is("BlockhashNotFound")`, { timeout: 60_000 })
        const message = await page.textContent('[data-testid=approvals-error-message]')
        expect(message).toBe('The transaction expired before it reached the network.')
        expect(await page.textContent('[role=dialog]')).not.toMatch(/getLogs|SendTransactionError|Simulation failed/)
        // Focus stayed in the dialog (it fell to <body>, and Escape stopped working).
        await expectDialogContained(page)
        await shot(page, 'send-sol-expired')
        await page.click(own('approvals-solana-transaction', 'Retry transaction'))
        await page.waitForSelector(own('approvals-solana-transaction', 'Approve'))
      }
      await page.click(own('approvals-solana-transaction', 'Approve'))
      await page.waitForSelector(title('Transaction completed successfully.'), { timeout: 60_000 }).catch(async (e) => {
        await shot(page, `send-sol-failed-${i}`)
        throw new Error(`send ${i + 1}: ${await page.textContent('[role=dialog]')} ${e}`)
      })
      await expectDialogContained(page)
      if (i === 1) await shot(page, 'send-sol-receipt')
      await page.click(own('approvals-solana-transaction', 'Close'))
      signatures.push(await result(page, 'apv solana sent:'))
      await closed(page)
    }
    expect(new Set(signatures).size).toBe(2)
    expect((await svm.balance(SOL_RECIPIENT)) - before).toBe(20_000_000)

    // The error screen answers Escape (focus inside): an expired confirm, then Escape closes it.
    await clearResult(page)
    await page.click('[data-testid=apv-send-sol]')
    await page.waitForSelector(own('approvals-solana-transaction', 'Approve'))
    await svm.call('standIn_advanceSlots', [151])
    await page.click(own('approvals-solana-transaction', 'Approve'))
    await page.waitForSelector('[data-testid=approvals-error-code]:text-is("BlockhashNotFound")', { timeout: 60_000 })
    await page.waitForFunction(() => !!document.querySelector('[role=dialog]')?.contains(document.activeElement))
    await page.keyboard.press('Escape')
    await closed(page)
    expect(errors.filter((e) => !/4001|User rejected|data:image/.test(e))).toEqual([])
  })
})
// endregion

describe('journeys set-up', () => {
  it('serves the app, the frame and the local chains', async () => {
    expect(h.frameUrl).toMatch(/^http:\/\//)
    expect(await s.evm.public.getChainId()).toBe(31337)
  })
})
