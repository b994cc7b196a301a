/**
 * The funding prompt after wallet creation (issue 17), in Chromium against the real server and
 * wallet frame: a new e-mail user of an app whose funding config has 'prompt on wallet creation'
 * gets the embedded wallet ('Welcome'), and once the login modal has closed the funding method
 * selection opens for the created wallet; with the option off, nothing is offered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startHarness, type Harness } from './harness'

const ON = 'w17-fund-prompt-on-000001'
const OFF = 'w17-fund-prompt-off-00001'
let h: Harness

beforeAll(async () => {
  const app = (id: string, prompt: boolean, origin: string) => ({
    id,
    name: `Funding prompt ${prompt ? 'on' : 'off'}`,
    loginMethods: ['email'],
    allowedOrigins: [origin],
    embeddedWallets: { createOnLogin: 'users-without-wallets' },
    // Two methods, so the prompt shows the method selection (with one it forwards to that method).
    funding: { methods: ['wallet', 'manual'], promptFundingOnWalletCreation: prompt },
  })
  h = await startHarness({ walletFrame: true, limits: { resendCooldownS: 0 }, extraApps: (origin) => [app(ON, true, origin), app(OFF, false, origin)] })
}, 180_000)
afterAll(async () => {
  await h?.close()
})

async function loginNewUser(page: Page) {
  const email = `prompt-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@example.com`
  await h.enterEmailCode(page, email)
  await page.waitForSelector('[role=dialog][data-screen=embedded-wallet-create] .portico-title:text-is("Welcome")')
}

const fundingRequest = (page: Page) =>
  page.evaluate(() => (window as unknown as { portico: { plugin(id: string): { state: { get(): { request: unknown } } } } }).portico.plugin('funding').state.get().request)

describe('funding prompt after wallet creation', { timeout: 120_000 }, () => {
  it('a new user of an app with the option on is offered funding for the created wallet', async () => {
    const page = await h.openPage({ app: ON, frame: h.frameUrl! })
    await loginNewUser(page)
    await page.waitForSelector('[role=dialog][data-screen=funding-methods] .portico-title:text-is("Add funds")', { timeout: 30_000 })
    await page.waitForSelector('[data-testid=wallet-ethereum]')
    const address = await page.textContent('[data-testid=wallet-ethereum]')
    expect(await fundingRequest(page)).toMatchObject({ address, chainType: 'ethereum' })
    await h.screenshot(page, 'funding-prompt-after-creation')
    await page.keyboard.press('Escape')
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
  })

  it('with the option off, the login ends without a funding prompt', async () => {
    const page = await h.openPage({ app: OFF, frame: h.frameUrl! })
    await loginNewUser(page)
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    await page.waitForSelector('[data-testid=wallet-ethereum]')
    // The prompt decides before the login modal closes: with the option off no funding request was made.
    expect(await fundingRequest(page)).toBeNull()
    expect(await page.$('[role=dialog]')).toBeNull()
  })
})
