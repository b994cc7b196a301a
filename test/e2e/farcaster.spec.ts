/**
 * Sign In With Farcaster in Chromium against the reference server: the server runs the
 * channel and checks custody against a tiny IdRegistry on a local hardhat node (its Optimism
 * RPC setting points there); the Farcaster-app stand-in "scans" the QR code (the connect URI)
 * and signs a real SIWF message with the fid's custody key. Login of a new user, link,
 * unlink, and the transfer of a Farcaster account another user holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { deployIdRegistry, farcasterApp, startChain, type Chain, type FarcasterUser, type IdRegistry } from '../../examples/server/test/chain/farcaster'
import { startHarness, type Harness } from './harness'

const FC = 'portico-test-farcaster-01'
let h: Harness
let chain: Chain
let reg: IdRegistry
let fid = 5000 + (process.pid % 1000) * 10

beforeAll(async () => {
  chain = await startChain()
  reg = await deployIdRegistry(chain.rpc)
  h = await startHarness({ server: { farcaster: { rpcUrl: chain.rpc, idRegistry: reg.address } } })
}, 240_000)
afterAll(async () => {
  await h?.close()
  chain?.stop()
})

const userRecord = async (page: Page) => JSON.parse((await page.textContent('[data-testid=user]'))!) as Record<string, any>
const waitStatus = (page: Page, text: string) =>
  page.waitForFunction((t) => document.querySelector('[data-testid=status]')?.textContent === t, text)
const waitResult = (page: Page, text: string) =>
  page.waitForFunction((t) => document.querySelector('[data-testid=result]')?.textContent === t, text)

async function newUser(): Promise<FarcasterUser> {
  const u: FarcasterUser = { fid: fid++, custody: privateKeyToAccount(generatePrivateKey()), username: `e2e${fid}`, displayName: 'E2E User', bio: 'e2e' }
  await reg.register(u.fid, u.custody.address)
  return u
}

/** With 'farcaster-connect' open: wait for the QR code, then the Farcaster app signs for `u`. */
async function approveInApp(page: Page, u: FarcasterUser) {
  await page.waitForSelector('[role=dialog][data-screen=farcaster-connect] svg.portico-qr-code')
  const uri = await page.evaluate(() => (window as any).portico.plugin('farcaster').state.get().connectUri as string)
  expect(uri).toMatch(/channelToken=/)
  await farcasterApp(h.apiUrl, uri, u)
}

async function loginFarcaster(page: Page, u: FarcasterUser) {
  await h.openModal(page)
  await page.locator('[role=dialog] [data-method=farcaster]').click()
  await approveInApp(page, u)
  await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 15_000 })
  await waitStatus(page, 'logged in')
}

async function loginEmail(page: Page, address: string) {
  await h.openModal(page)
  const since = Date.now()
  await page.fill('[role=dialog] input[type=email]', address)
  await page.keyboard.press('Enter')
  await page.waitForSelector('[role=dialog][data-screen=email-code]')
  const code = await h.readOutboxCode(address, since)
  await page.locator('[role=dialog] input[aria-label="Digit 1 of 6"]').click()
  await page.keyboard.type(code)
  await page.waitForSelector('[role=dialog]', { state: 'detached' })
  await waitStatus(page, 'logged in')
}

describe('Farcaster', { timeout: 90_000 }, () => {
  it('logs a new user in with the QR code (desktop), under the strict CSP', async () => {
    const u = await newUser()
    const page = await h.openPage({ app: FC })
    await h.openModal(page)
    await page.locator('[role=dialog] [data-method=farcaster]').click()
    await page.waitForSelector('[role=dialog][data-screen=farcaster-connect] svg.portico-qr-code')
    expect(await page.textContent('[role=dialog] .portico-title')).toBe('Sign in with Farcaster')
    await h.screenshot(page, 'farcaster-qr')
    await approveInApp(page, u)
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 15_000 })
    await waitStatus(page, 'logged in')
    await waitResult(page, 'complete: farcaster (new user)')
    const user = await userRecord(page)
    expect(user.farcaster).toMatchObject({ fid: u.fid, ownerAddress: u.custody.address, username: u.username, displayName: 'E2E User' })
    expect(await page.evaluate((id) => localStorage.getItem(`portico:${id}:recent-login-method`), FC)).toBe('farcaster')
    expect(h.consoleErrors(page)).toEqual([])
  })

  it("mobile: an 'Open Warpcast app' button carries the connect URI instead of a QR code", async () => {
    const u = await newUser()
    const context = await h.browser.newContext({
      viewport: { width: 390, height: 844 },
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      reducedMotion: 'reduce',
    })
    try {
      const page = await context.newPage()
      await page.goto(`${h.appUrl}/?app=${FC}&api=${encodeURIComponent(h.apiUrl)}`)
      await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged out')
      await page.getByTestId('login').click()
      await page.locator('[role=dialog] [data-method=farcaster]').click()
      const button = page.getByRole('link', { name: 'Open Warpcast app', exact: true })
      await button.waitFor()
      expect(await page.locator('svg.portico-qr-code').count()).toBe(0)
      const uri = (await button.getAttribute('href'))!
      expect(uri).toMatch(/^https:\/\/warpcast\.com\/~\/sign-in-with-farcaster\?channelToken=/)
      await h.screenshot(page, 'farcaster-mobile')
      await farcasterApp(h.apiUrl, uri, u)
      await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged in', undefined, { timeout: 15_000 })
      expect(JSON.parse((await page.textContent('[data-testid=user]'))!).farcaster.fid).toBe(u.fid)
    } finally {
      await context.close()
    }
  })

  it('links to an e-mail user, unlinks, and transfers a Farcaster account another user holds', async () => {
    // Another user owns `taken` (logged in with Farcaster in its own browser context).
    const taken = await newUser()
    const other = await h.openPage({ app: FC })
    await loginFarcaster(other, taken)
    const otherUser = await userRecord(other)

    const page = await h.openPage({ app: FC })
    await loginEmail(page, `fc-${Date.now()}@example.com`)
    const me = await userRecord(page)

    // Link a fresh Farcaster account.
    const mine = await newUser()
    await page.getByRole('button', { name: 'Link Farcaster', exact: true }).click()
    await approveInApp(page, mine)
    await waitResult(page, 'complete: link')
    expect((await userRecord(page)).farcaster.fid).toBe(mine.fid)

    // Unlink it.
    await page.getByRole('button', { name: 'Unlink Farcaster', exact: true }).click()
    await page.locator('[data-demo-confirm]').getByRole('button', { name: 'Unlink', exact: true }).click() // the demo asks first
    await waitResult(page, 'complete: unlink farcaster')
    expect((await userRecord(page)).farcaster).toBeFalsy()

    // Link the one the other user holds: transfer.
    await page.getByRole('button', { name: 'Link Farcaster', exact: true }).click()
    await approveInApp(page, taken)
    await page.waitForSelector('[role=dialog][data-screen=account-link-conflict]', { timeout: 15_000 })
    expect(await page.textContent('[role=dialog] .portico-title')).toBe('Farcaster profile is associated with another account')
    await h.screenshot(page, 'farcaster-link-conflict')
    await page.getByRole('button', { name: 'Transfer and delete account', exact: true }).click()
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 15_000 })
    await waitResult(page, 'complete: link')
    const after = await userRecord(page)
    expect(after.id).toBe(me.id)
    expect(after.farcaster.fid).toBe(taken.fid)
    expect(after.id).not.toBe(otherUser.id)
    expect(h.consoleErrors(page).filter((e) => !/status of 400/.test(e))).toEqual([])
  })
})
