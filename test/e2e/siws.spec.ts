/**
 * Sign-In With Solana in Chromium against the reference server: a wallet-standard wallet
 * registered in the page (ed25519 key pair in Node, @noble/curves) logs in; both kinds of
 * wallet share one list; a Solana wallet is linked and unlinked; the no-wallet texts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { generatePrivateKey } from 'viem/accounts'
import { startHarness, type Harness } from './harness'
import { installSolanaWallet, type TestSolanaWallet } from './wallets/solana'
import { installEthereumWallet } from './wallets/ethereum'

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(async () => {
  await h?.close()
})

const PHANTOM = '[data-method="wallet:wallet-standard:Phantom"]'
const METAMASK = '[data-method="wallet:eip6963:io.metamask"]'

async function waitReady(page: Page) {
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-testid=status]')?.textContent
    return !!s && s !== 'loading'
  })
}

async function openWithWallets(query: Record<string, string> = {}, ethereum = false): Promise<{ page: Page; sol: TestSolanaWallet }> {
  const page = await h.openPage(query)
  const sol = await installSolanaWallet(page, { secretKey: crypto.getRandomValues(new Uint8Array(32)) })
  if (ethereum) await installEthereumWallet(page, { privateKey: generatePrivateKey() })
  await page.reload()
  await waitReady(page)
  return { page, sol }
}

async function userRecord(page: Page) {
  return JSON.parse((await page.textContent('[data-testid=user]')) ?? 'null')
}

describe('siws in the browser', () => {
  it('logs in with a wallet-standard Solana wallet', async () => {
    const { page, sol } = await openWithWallets({ chains: 'solana-only' })
    await h.openModal(page)
    await page.click('[data-method="wallet"]')
    await page.waitForSelector(PHANTOM)
    const row = (await page.textContent(PHANTOM)) ?? ''
    expect(row).toContain('Solana')
    expect(row).toContain('Connect')
    expect(await page.$(METAMASK)).toBeNull()
    await page.click(PHANTOM)
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 15_000 })
    expect(await page.textContent('[data-testid=result]')).toBe('complete: siws (new user)')
    const user = await userRecord(page)
    expect(user.wallet).toMatchObject({ address: sol.address, chainType: 'solana', walletClientType: 'phantom', connectorType: 'solana_adapter' })
    const host = new URL(h.appUrl).host
    expect(sol.signed).toHaveLength(1)
    expect(sol.signed[0].split('\n').slice(0, 2)).toEqual([`${host} wants you to sign in with your Solana account:`, sol.address])
    await h.screenshot(page, 'siws-logged-in')
  })

  it('shows Ethereum and Solana wallets in one list when both plugins are on', async () => {
    const { page } = await openWithWallets({ chains: 'ethereum-and-solana' }, true)
    await h.openModal(page)
    await page.click('[data-method="wallet"]')
    await page.waitForSelector(PHANTOM)
    await page.waitForSelector(METAMASK)
    expect(await page.textContent(METAMASK)).not.toContain('Solana')
    await h.screenshot(page, 'siws-siwe-wallet-list')
  })

  it('a rejected Solana signature shows the rejection; Retry logs in', async () => {
    const { page, sol } = await openWithWallets({ chains: 'solana-only' })
    sol.rejectSignatures(1)
    await h.openModal(page)
    await page.click('[data-method="wallet"]')
    await page.click(PHANTOM)
    await page.waitForSelector('[data-portico-wallet-status=error]')
    expect(await page.locator('[role=dialog] .portico-title').textContent()).toBe('You rejected the request')
    expect(await page.locator('[role=dialog]').textContent()).toContain('Signature rejected: Please try signing again.')
    await page.getByRole('button', { name: 'Retry' }).click()
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 15_000 })
    expect((await userRecord(page)).wallet.address).toBe(sol.address)
  })

  it('links a Solana wallet to a guest and unlinks it', async () => {
    const { page, sol } = await openWithWallets({ chains: 'solana-only' })
    await h.openModal(page)
    await page.click('[data-method="more-options"]')
    await page.click('[data-method="guest"]')
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 15_000 })
    await page.getByRole('button', { name: 'Link wallet', exact: true }).click()
    await page.click(PHANTOM)
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 15_000 })
    expect(await page.textContent('[data-testid=result]')).toBe('complete: link')
    expect((await userRecord(page)).wallet).toMatchObject({ address: sol.address, chainType: 'solana' })
    await page.getByRole('button', { name: 'Unlink wallet', exact: true }).click()
    await page.locator('[data-demo-confirm]').getByRole('button', { name: 'Unlink', exact: true }).click() // the demo asks first
    await page.waitForFunction(() => document.querySelector('[data-testid=result]')?.textContent === 'complete: unlink wallet')
    expect((await userRecord(page)).wallet).toBeUndefined()
  })

  it('says which wallets to install when there are none', async () => {
    const page = await h.openPage({ chains: 'solana-only' })
    await h.openModal(page)
    await page.click('[data-method="wallet"]')
    await page.waitForSelector('[data-portico-no-wallets]', { timeout: 10_000 })
    expect(await page.textContent('[data-portico-no-wallets]')).toBe(
      'No wallets available: Please download an external wallet provider, like Phantom or Solflare',
    )
    await h.screenshot(page, 'siws-no-wallets')
    // WalletConnect off: it is always available, so the list would not be empty.
    const eth = await h.openPage({ chains: 'ethereum-only', wc: '0' })
    await h.openModal(eth)
    await eth.click('[data-method="wallet"]')
    await eth.waitForSelector('[data-portico-no-wallets]', { timeout: 10_000 })
    expect(await eth.textContent('[data-portico-no-wallets]')).toBe(
      'No wallets available: Please download an external wallet provider, like Rainbow, Phantom, or Coinbase Wallet',
    )
  })

  it('a second wallet cannot be linked: the limit text', async () => {
    const { page } = await openWithWallets({ chains: 'ethereum-and-solana' }, true)
    await h.openModal(page)
    await page.click('[data-method="wallet"]')
    await page.click(PHANTOM)
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 15_000 })
    await page.getByRole('button', { name: 'Link wallet', exact: true }).click()
    await page.click(METAMASK)
    await page.waitForSelector('[data-portico-wallet-status=error]')
    expect(await page.locator('[role=dialog]').textContent()).toContain(
      "Unable to link: You've reached the maximum number of linked wallets.",
    )
    expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(0)
  })

  it('linking a Solana wallet of another user offers the account transfer', async () => {
    const { page, sol } = await openWithWallets({ chains: 'solana-only' })
    await h.openModal(page)
    await page.click('[data-method="wallet"]')
    await page.click(PHANTOM)
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 15_000 })
    await page.click('[data-testid=logout]')
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged out')
    await h.openModal(page)
    await page.click('[data-method="more-options"]')
    await page.click('[data-method="guest"]')
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 15_000 })
    await page.getByRole('button', { name: 'Link wallet', exact: true }).click()
    await page.click(PHANTOM)
    await page.waitForSelector('[role=dialog][data-screen=account-link-conflict]', { timeout: 15_000 })
    expect(await page.locator('[role=dialog] .portico-title').textContent()).toBe('Wallet address is associated with another account')
    await h.screenshot(page, 'siws-link-conflict')
    expect(sol.signed).toHaveLength(2)
  })
})
