/**
 * Sign-In with Ethereum in Chromium against the reference server: a real signing wallet
 * (viem private-key account in Node, EIP-1193 provider in the page, announced by EIP-6963)
 * logs in; a rejected signature (4001) shows the rejection and Retry works; a wallet is
 * linked to a logged-in user and unlinked again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { generatePrivateKey } from 'viem/accounts'
import { APPS, startHarness, type Harness } from './harness'
import { installEthereumWallet, TEST_ETH_KEY, type TestEthereumWallet } from './wallets/ethereum'

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(async () => {
  await h?.close()
})

const METAMASK = '[data-method="wallet:eip6963:io.metamask"]'

/** The demo app with a fresh test wallet installed before the app's scripts run. */
async function openWithWallet(query: Record<string, string> = {}): Promise<{ page: Page; wallet: TestEthereumWallet }> {
  const page = await h.openPage(query)
  const wallet = await installEthereumWallet(page, { privateKey: generatePrivateKey(), chainId: 8453 })
  await page.reload()
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-testid=status]')?.textContent
    return !!s && s !== 'loading'
  })
  return { page, wallet }
}

async function userRecord(page: Page) {
  return JSON.parse((await page.textContent('[data-testid=user]')) ?? 'null')
}

/** Console errors minus the CSP report of the wallet's data: icon (the harness CSP has no img-src data:). */
function errorsBesidesIcons(page: Page) {
  return h.consoleErrors(page).filter((e) => !/img-src|Refused to load the image 'data:/.test(e))
}

describe('siwe in the browser', () => {
  it('logs in with an EIP-6963 wallet; the user record shows the wallet address', async () => {
    const { page, wallet } = await openWithWallet()
    await h.openModal(page)
    await page.click('[data-method="wallet"]')
    await page.waitForSelector(METAMASK)
    expect(await page.textContent(METAMASK)).toContain('Connect')
    await h.screenshot(page, 'siwe-wallet-list')
    await page.click(METAMASK)
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 15_000 })
    expect(await page.textContent('[data-testid=status]')).toBe('logged in')
    expect(await page.textContent('[data-testid=result]')).toBe('complete: siwe (new user)')
    const user = await userRecord(page)
    expect(user.wallet).toMatchObject({
      address: wallet.address,
      chainType: 'ethereum',
      chainId: 'eip155:8453',
      walletClientType: 'metamask',
      connectorType: 'injected',
    })
    expect(wallet.requests).toEqual(expect.arrayContaining(['eth_requestAccounts', 'eth_chainId', 'personal_sign']))
    const [message] = wallet.signed
    const origin = new URL(h.appUrl)
    expect(message.split('\n')[0]).toBe(`${origin.host} wants you to sign in with your Ethereum account:`)
    expect(message).toContain(`URI: ${origin.origin}`)
    expect(message).toContain('Chain ID: 8453')
    expect(message).toContain(
      'By signing, you are proving you own this wallet and logging in. This does not initiate a transaction or cost any fees.',
    )
    await h.screenshot(page, 'siwe-logged-in')

    // The wallet is now the recent one.
    await page.click('[data-testid=logout]')
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged out')
    await h.openModal(page)
    // The landing's 'wallet' row covers siwe: it carries the 'Recent' chip.
    expect(await page.textContent('[data-method="wallet"]')).toContain('Recent')
    await page.click('[data-method="wallet"]')
    await page.waitForSelector(METAMASK)
    expect(await page.textContent(METAMASK)).toContain('Recent')
    expect(errorsBesidesIcons(page)).toEqual([])
  })

  it('a rejected signature (4001) shows the rejection text, and Retry logs in', async () => {
    const { page, wallet } = await openWithWallet()
    wallet.rejectSignatures(1)
    await h.openModal(page)
    await page.click('[data-method="wallet"]')
    await page.click(METAMASK)
    await page.waitForSelector('[data-portico-wallet-status=error]')
    const dialog = page.locator('[role=dialog]')
    expect(await dialog.locator('.portico-title').textContent()).toBe('You rejected the request')
    expect(await dialog.textContent()).toContain('Signature rejected: Please try signing again.')
    await h.screenshot(page, 'siwe-signature-rejected')
    await page.getByRole('button', { name: 'Retry' }).click()
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 15_000 })
    expect(await page.textContent('[data-testid=status]')).toBe('logged in')
    expect((await userRecord(page)).wallet.address).toBe(wallet.address)
    expect(wallet.requests.filter((m) => m === 'personal_sign')).toHaveLength(2)
  })

  it('links a wallet to a logged-in (guest) user and unlinks it', async () => {
    const { page, wallet } = await openWithWallet()
    await h.openModal(page)
    await page.click('[data-method="more-options"]')
    await page.click('[data-method="guest"]')
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 15_000 })
    expect(await page.textContent('[data-testid=status]')).toBe('logged in')
    expect((await userRecord(page)).wallet).toBeUndefined()

    await page.getByRole('button', { name: 'Link wallet', exact: true }).click()
    await page.waitForSelector(METAMASK)
    expect(await page.locator('[role=dialog] .portico-title').textContent()).toBe('Link a wallet')
    await page.click(METAMASK)
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 15_000 })
    expect(await page.textContent('[data-testid=result]')).toBe('complete: link')
    const linked = await userRecord(page)
    expect(linked.linkedAccounts.filter((a: any) => a.type === 'wallet').map((a: any) => a.address)).toEqual([wallet.address])
    await h.screenshot(page, 'siwe-linked')

    await page.getByRole('button', { name: 'Unlink wallet', exact: true }).click()
    await page.locator('[data-demo-confirm]').getByRole('button', { name: 'Unlink', exact: true }).click() // the demo asks first
    await page.waitForFunction(() => document.querySelector('[data-testid=result]')?.textContent === 'complete: unlink wallet')
    expect((await userRecord(page)).linkedAccounts.filter((a: any) => a.type === 'wallet')).toEqual([])
    // The server agrees: a fresh read of the user has no wallet either.
    const fresh = await page.evaluate(async () => {
      const k = (window as any).portico
      const u = await k.session.refreshUser()
      return u.linkedAccounts.filter((a: any) => a.type === 'wallet').length
    })
    expect(fresh).toBe(0)
  })

  it('an allowlist admits the listed wallet and shows the rejection screen to others', async () => {
    // Not listed: the allowlist screen replaces the awaiting-connection screen.
    const { page } = await openWithWallet({ app: APPS.allowlist })
    await h.openModal(page)
    await page.click('[data-method="wallet"]')
    await page.click(METAMASK)
    await page.waitForSelector('[role=dialog][data-screen=allowlist-rejection]', { timeout: 15_000 })
    expect(await page.locator('[role=dialog] .portico-title').textContent()).toBe("You don't have access to this app")

    // Listed (0x7099...79C8 is in examples/server/apps.json): logs in.
    const listed = await h.openPage({ app: APPS.allowlist })
    const wallet = await installEthereumWallet(listed, { privateKey: TEST_ETH_KEY })
    await listed.reload()
    await listed.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged out')
    await h.openModal(listed)
    await listed.click('[data-method="wallet"]')
    await listed.click(METAMASK)
    await listed.waitForSelector('[role=dialog]', { state: 'detached', timeout: 15_000 })
    expect((await userRecord(listed)).wallet.address).toBe(wallet.address)
    expect(wallet.address).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
  })

  it('linking a wallet that belongs to another user says so, without Retry', async () => {
    const { page } = await openWithWallet()
    // The wallet signs up (user A) ...
    await h.openModal(page)
    await page.click('[data-method="wallet"]')
    await page.click(METAMASK)
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 15_000 })
    await page.click('[data-testid=logout]')
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged out')
    // ... then a guest (user B) tries to link it.
    await h.openModal(page)
    await page.click('[data-method="more-options"]')
    await page.click('[data-method="guest"]')
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 15_000 })
    await page.getByRole('button', { name: 'Link wallet', exact: true }).click()
    await page.click(METAMASK)
    await page.waitForSelector('[data-portico-wallet-status=error]')
    const dialog = page.locator('[role=dialog]')
    expect(await dialog.locator('.portico-title').textContent()).toBe('Could not log in with wallet')
    expect(await dialog.textContent()).toContain('User already exists for this address')
    expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(0)
    await h.screenshot(page, 'siwe-linked-to-another-user')
    await page.getByRole('button', { name: 'Use a different wallet' }).click()
    await page.waitForSelector(METAMASK)
  })
})
