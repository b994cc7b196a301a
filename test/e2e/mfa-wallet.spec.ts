/**
 * MFA before embedded-wallet actions (issue 16 with issue 14's wallet): a user with a wallet
 * enrols an authenticator app; in a new session the server refuses the wallet's auth share
 * without a verification (a client that skips the screen gains nothing); signing a message
 * through the embedded wallet shows 'Verify your identity', and after the code the
 * signature verifies; cancelling ('Not now') rejects the signature.
 */
import * as OTPAuth from 'otpauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { verifyMessage, type Hex } from 'viem'
import { startEvm, type Evm } from '../chains/evm'
import { startHarness, type Harness } from './harness'
import { totpStepWithMargin } from './totp'

const APP = 'portico-test-wlt-00000001'

let h: Harness
let evm: Evm
beforeAll(async () => {
  evm = await startEvm()
  h = await startHarness({ walletFrame: true, csp: { connectSrc: [evm.rpc] }, limits: { resendCooldownS: 0 } })
})
afterAll(async () => {
  await h?.close()
  evm?.stop()
})

const open = () => h.openPage({ app: APP, frame: h.frameUrl!, rpc: evm.rpc })

async function typeCode(page: Page, code: string) {
  await page.waitForSelector('[role=dialog] .portico-code-box:not([disabled])')
  await page.click('[role=dialog] .portico-code-box >> nth=0')
  await page.keyboard.type(code, { delay: 15 })
}

async function login(page: Page, email: string) {
  await h.openModal(page)
  const since = Date.now()
  await page.fill('input[type=email]', email)
  await page.press('input[type=email]', 'Enter')
  await page.waitForSelector('[role=dialog][data-screen=email-code] .portico-code-box')
  await typeCode(page, await h.readOutboxCode(email, since))
}

/** The next result line (not the one showing before `since`) that starts with `prefix` or 'error'. */
async function waitResult(page: Page, prefix: string, since: string | null = null) {
  await page.waitForFunction(
    ([p, old]) => {
      const t = document.querySelector('[data-testid=result]')?.textContent ?? ''
      return t !== old && (t.startsWith(p!) || t.startsWith('error'))
    },
    [prefix, since] as const,
  )
  const text = (await page.textContent('[data-testid=result]'))!
  expect(text.startsWith(prefix), text).toBe(true)
  return text.slice(prefix.length).trim()
}

/** The auth share asked by a client outside the frame, with this page's session (forging the frame's Origin). */
async function authShare(page: Page, entropyId: string) {
  const token = await page.evaluate(() => (window as unknown as { portico: { session: { getAccessToken(): Promise<string | null> } } }).portico.session.getAccessToken())
  const res = await fetch(`${h.apiUrl}/api/v1/wallets/auth_share`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'privy-app-id': APP, authorization: `Bearer ${token}`, origin: new URL(h.frameUrl!).origin },
    body: JSON.stringify({ entropy_id: entropyId }),
  })
  return { status: res.status, body: (await res.json()) as { code?: string; mfa_enrolled?: boolean; share?: string } }
}

/** What the server answered the frame's own auth-share requests (the frame proves its device, issue 26). */
function frameAuthShares(page: Page) {
  const seen: { status: number; body: { code?: string; mfa_enrolled?: boolean; share?: string } | null }[] = []
  page.on('response', async (r) => {
    if (r.request().method() !== 'POST' || !r.url().endsWith('/api/v1/wallets/auth_share')) return
    seen.push({ status: r.status(), body: await r.json().catch(() => null) })
  })
  return seen
}

describe('MFA before wallet actions', { timeout: 180_000 }, () => {
  it('refuses the auth share without verification; signs after verifying; Not now rejects', async () => {
    const email = `mfa-wallet-${Date.now().toString(36)}@example.com`
    const page = await open()
    await login(page, email)
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    await page.waitForSelector('[data-testid=wallet-ethereum]')
    const address = (await page.textContent('[data-testid=wallet-ethereum]')) as Hex
    const wallet = JSON.parse((await page.textContent('[data-testid=user]'))!).linkedAccounts.find((a: { type: string; chainType: string }) => a.type === 'wallet' && a.chainType === 'ethereum')
    const entropyId = wallet.entropyId as string

    // Enrol an authenticator app through the screens.
    await page.getByRole('button', { name: 'MFA', exact: true }).click()
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.click('[data-mfa-method=totp] button')
    await page.waitForSelector('[data-mfa-totp-enrol] svg.portico-qr-code')
    const gen = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(await page.inputValue('[data-mfa-totp-secret]')), digits: 6, period: 30, algorithm: 'SHA1' })
    await page.getByRole('button', { name: 'Continue' }).click()
    await totpStepWithMargin()
    await typeCode(page, gen.generate({ timestamp: Date.now() - 30_000 }))
    await page.getByRole('heading', { name: 'Authenticator app verification added' }).waitFor()
    await page.getByRole('button', { name: 'Done' }).click()
    await page.waitForSelector('[role=dialog]', { state: 'detached' })

    // A new session (log out, log in): not verified yet.
    const answers = frameAuthShares(page)
    await page.click('[data-testid=logout]')
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged out')
    await login(page, email)
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    await page.waitForSelector('[data-testid=wallet-ethereum]')

    // A client outside the frame (the frame's Origin forged) gets nothing: no device proof.
    const outside = await authShare(page, entropyId)
    expect(outside.status).toBe(403)
    expect(outside.body.code).toBe('device_proof_required')
    expect(outside.body.share).toBeUndefined()

    // 'Not now' rejects the signature.
    await page.click('[data-testid=wallet-sign]')
    await page.getByRole('heading', { name: 'Verify your identity' }).waitFor()
    // The server refused the frame itself (its device proof valid) until this session verifies: skipping the screen gains nothing.
    expect(answers.length).toBeGreaterThan(0)
    expect(answers.every((a) => a.status === 403 && a.body?.code === 'missing_or_invalid_mfa' && !a.body?.share), JSON.stringify(answers)).toBe(true)
    await page.getByRole('button', { name: 'Not now' }).click()
    await waitResult(page, 'error')
    expect(await page.textContent('[data-testid=result]')).toMatch(/^error/)

    // Sign after verifying: the screen, the code, then a signature that verifies.
    const canceled = await page.textContent('[data-testid=result]')
    await page.click('[data-testid=wallet-sign]')
    await page.waitForSelector('[data-mfa-verify][data-mfa-method=totp][data-mfa-status=awaiting-code]')
    await h.screenshot(page, 'mfa-wallet-verify')
    await typeCode(page, gen.generate())
    const sig = (await waitResult(page, 'signature:', canceled)) as Hex
    expect(await verifyMessage({ address, message: 'Hello from Portico', signature: sig })).toBe(true)
    // Verified now: the server released it to the frame of this session, marked as MFA-enrolled (not to be cached).
    const released = answers.at(-1)!
    expect(released.status).toBe(200)
    expect(released.body?.mfa_enrolled).toBe(true)
  })
})
