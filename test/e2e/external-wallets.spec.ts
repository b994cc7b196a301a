/**
 * External wallets beyond the browser extension, in Chromium against the reference server:
 * Phantom on a phone (mobile emulation) through its deep links, answered by a Phantom
 * stand-in that speaks Phantom's documented protocol (./wallets/phantom.ts); the wallet list
 * (walletList order, install rows, overflow, chain-type filtering, the Solana-only empty
 * text); a smart-contract wallet's SIWE (ERC-1271, ERC-6492) through the Coinbase Wallet SDK
 * on a local hardhat chain; wagmi reading the user's wallets through `portico/wagmi`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devices, type BrowserContext, type Page } from 'playwright-core'
import { encodeFunctionData, verifyMessage, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { serializeErc6492Signature } from 'viem/utils'
import { startHarness, type Harness } from './harness'
import { PAGE_INIT_SCRIPT } from './page-scripts'
import { installPhantomStandIn } from './wallets/phantom'
import { installEthereumWallet } from './wallets/ethereum'
import { installSolanaWallet } from './wallets/solana'
import { compileSolidity, SMART_WALLET_SOURCE, startEvm, type Evm } from '../chains/evm'

/** examples/server/apps.json: wallet only, chains 1 and 31337 (the local chain). */
const SMART_APP = 'portico-test-ext-smartw01'
/** examples/server/apps.json: wallet only, walletChainType 'solana-only'. */
const SOLANA_APP = 'portico-test-ext-solana01'

let h: Harness
let evm: Evm
beforeAll(async () => {
  evm = await startEvm()
  h = await startHarness({ server: { rpcUrls: { 31337: evm.rpc } }, walletFrame: true, csp: { connectSrc: [evm.rpc] } })
}, 180_000)
afterAll(async () => {
  await h?.close()
  evm?.stop()
})

const PHANTOM_DEEPLINK = '[data-method="wallet:phantom:deeplink"]'

async function userRecord(page: Page) {
  return JSON.parse((await page.textContent('[data-testid=user]')) ?? 'null')
}

/** An iPhone-sized Chromium context (mobile user agent, touch) with the harness's page scripts. */
async function phoneContext(): Promise<BrowserContext> {
  const { defaultBrowserType: _, ...iphone } = devices['iPhone 13']
  const context = await h.browser.newContext({ ...iphone, reducedMotion: 'reduce' })
  await context.addInitScript(PAGE_INIT_SCRIPT)
  return context
}

async function openPhone(context: BrowserContext, query: Record<string, string>): Promise<Page> {
  const page = await context.newPage()
  const q = new URLSearchParams({ api: h.apiUrl, ...query })
  await page.goto(`${h.appUrl}/?${q}`)
  await h.waitReady(page)
  return page
}

describe('Phantom on a phone (deep links)', () => {
  it('shows the interstitial, then Go to App Store; the return connects, a second trip signs, the user is logged in', async () => {
    const context = await phoneContext()
    const phantom = await installPhantomStandIn(context)
    const page = await openPhone(context, { chains: 'solana-only' })
    await h.openModal(page)
    await page.click('[data-method="wallet"]')
    await page.waitForSelector(PHANTOM_DEEPLINK)
    expect(await page.textContent(PHANTOM_DEEPLINK)).toContain('Phantom')
    await h.screenshot(page, 'external-phantom-mobile-list')

    // First without the app (the deep link goes nowhere): the interstitial stays, and after
    // about 1 s offers 'Go to App Store'.
    phantom.notInstalledNext()
    await page.click(PHANTOM_DEEPLINK)
    await page.waitForSelector('[data-portico-wallet-redirect=fallback] a')
    const dialog = page.locator('[role=dialog]')
    expect(await dialog.locator('.portico-title').textContent()).toBe('Redirecting to Phantom Mobile Wallet')
    const store = page.getByRole('link', { name: 'Go to App Store' })
    expect(await store.getAttribute('href')).toContain('apps.apple.com')
    await h.screenshot(page, 'external-phantom-interstitial')

    // With the app: back to the list, Phantom again; it answers on the return address, which the
    // kernel strips; then 'Sign with your wallet'.
    await dialog.getByRole('button', { name: /back/i }).click()
    await page.click(PHANTOM_DEEPLINK)
    await page.waitForSelector('[role=dialog][data-screen=wallet-connect] [data-portico-wallet-status=ready]', { timeout: 20_000 })
    const back = new URL(page.url())
    for (const p of ['portico_wallet_connector', 'portico_wallet_client', 'phantom_encryption_public_key', 'nonce', 'data']) {
      expect(back.searchParams.has(p)).toBe(false)
    }
    expect(back.searchParams.get('chains')).toBe('solana-only')
    await h.screenshot(page, 'external-phantom-sign')
    await page.getByRole('button', { name: 'Sign with your wallet' }).click()
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged in', undefined, { timeout: 20_000 })
    expect(phantom.requests).toEqual(['connect', 'connect', 'signMessage'])
    expect(phantom.signed[0]).toContain(`${new URL(h.appUrl).host} wants you to sign in with your Solana account:\n${phantom.address}`)
    const user = await userRecord(page)
    expect(user.wallet).toMatchObject({ address: phantom.address, chainType: 'solana', walletClientType: 'phantom', connectorType: 'phantom' })
    expect(new URL(page.url()).searchParams.has('data')).toBe(false)
    await context.close()
  })

  it('a refusal in Phantom shows Could not connect with wallet; Try again goes back to Phantom, Cancel to the list', async () => {
    const context = await phoneContext()
    const phantom = await installPhantomStandIn(context)
    const page = await openPhone(context, { chains: 'solana-only' })
    await h.openModal(page)
    await page.click('[data-method="wallet"]')
    phantom.rejectNext()
    await page.click(PHANTOM_DEEPLINK)
    await page.waitForSelector('[role=dialog][data-screen=wallet-login-failed]', { timeout: 20_000 })
    const dialog = page.locator('[role=dialog]')
    expect(await dialog.locator('.portico-title').textContent()).toBe('Could not connect with wallet')
    expect(await dialog.getByRole('button', { name: 'Cancel' }).isVisible()).toBe(true)
    await h.screenshot(page, 'external-phantom-login-failed')
    await dialog.getByRole('button', { name: 'Try again' }).click()
    await page.waitForSelector('[role=dialog][data-screen=wallet-connect] [data-portico-wallet-status=ready]', { timeout: 20_000 })
    expect(phantom.requests).toEqual(['connect', 'connect'])
    await context.close()
  })
})

describe('Coinbase Wallet: a smart-contract account signs in (server-side ERC-1271 / ERC-6492 on a local chain)', () => {
  const COINBASE = '[data-method="wallet:coinbase_wallet"]'
  const contracts = () => ({ wallet: compileSolidity(SMART_WALLET_SOURCE, 'OwnedWallet'), factory: compileSolidity(SMART_WALLET_SOURCE, 'WalletFactory') })

  /**
   * The demo app with the Coinbase Wallet plugin, and a wallet where the Coinbase extension puts
   * its provider (`window.coinbaseWalletExtension`, which @coinbase/wallet-sdk hands out): its
   * account is the smart-contract address, its signatures the ones the smart wallet returns.
   */
  async function openWithSmartWallet(address: Hex, sign: (data: Hex) => Promise<Hex>) {
    const page = await h.openPage({ app: SMART_APP, chains: 'app', coinbase: '1' })
    const wallet = await installEthereumWallet(page, { address, sign, chainId: 31337, inject: 'coinbaseWalletExtension' })
    await page.reload()
    await h.waitReady(page)
    await h.openModal(page)
    await page.click('[data-method="wallet"]')
    await page.waitForSelector(COINBASE)
    return { page, wallet }
  }

  it('ERC-1271: a deployed account logs in; its SIWE is verified on chain', async () => {
    const { wallet } = contracts()
    const owner = privateKeyToAccount(generatePrivateKey())
    const account = await evm.deploy(wallet.abi, wallet.bytecode, [owner.address])
    const { page, wallet: w } = await openWithSmartWallet(account, (data) => owner.signMessage({ message: { raw: data } }))
    expect(await page.textContent(COINBASE)).toContain('Coinbase Wallet')
    await h.screenshot(page, 'external-coinbase-list')
    await page.click(COINBASE)
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged in', undefined, { timeout: 20_000 })
    const user = await userRecord(page)
    expect(user.wallet).toMatchObject({ chainType: 'ethereum', chainId: 'eip155:31337', walletClientType: 'coinbase_wallet', connectorType: 'coinbase_wallet' })
    expect(user.wallet.address.toLowerCase()).toBe(account.toLowerCase())
    expect(w.requests).toEqual(expect.arrayContaining(['eth_requestAccounts', 'personal_sign']))
  })

  it('ERC-6492: an account not deployed yet logs in (the signature carries its factory call)', async () => {
    const { factory } = contracts()
    const owner = privateKeyToAccount(generatePrivateKey())
    const factoryAddress = await evm.deploy(factory.abi, factory.bytecode)
    const salt = `0x${'22'.repeat(32)}` as Hex
    const account = (await evm.public.readContract({ address: factoryAddress, abi: factory.abi, functionName: 'addressOf', args: [owner.address, salt] })) as Hex
    expect(await evm.public.getCode({ address: account })).toBeUndefined()
    const data = encodeFunctionData({ abi: factory.abi, functionName: 'deploy', args: [owner.address, salt] })
    const { page } = await openWithSmartWallet(account, async (raw) =>
      serializeErc6492Signature({ address: factoryAddress, data, signature: await owner.signMessage({ message: { raw } }) }),
    )
    await page.click(COINBASE)
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged in', undefined, { timeout: 20_000 })
    expect((await userRecord(page)).wallet.address.toLowerCase()).toBe(account.toLowerCase())
  })

  it("a signature the account's owner did not make is refused: 'Could not log in with wallet'", async () => {
    const { wallet } = contracts()
    const owner = privateKeyToAccount(generatePrivateKey())
    const stranger = privateKeyToAccount(generatePrivateKey())
    const account = await evm.deploy(wallet.abi, wallet.bytecode, [owner.address])
    const { page } = await openWithSmartWallet(account, (data) => stranger.signMessage({ message: { raw: data } }))
    await page.click(COINBASE)
    await page.waitForSelector('[data-portico-wallet-status=error]', { timeout: 20_000 })
    expect(await page.locator('[role=dialog] .portico-title').textContent()).toBe('Could not log in with wallet')
    expect(await page.textContent('[data-testid=status]')).toBe('logged out')
  })
})

describe('the wallet list: walletList, walletChainType, overflow', () => {
  const BRANDS = [
    { name: 'MetaMask', rdns: 'io.metamask' },
    { name: 'Rainbow', rdns: 'me.rainbow' },
    { name: 'Zerion', rdns: 'io.zerion.wallet' },
    { name: 'Rabby Wallet', rdns: 'io.rabby' },
    { name: 'Brave Wallet', rdns: 'com.brave.wallet' },
  ]
  async function openWithWallets(query: Record<string, string>) {
    const page = await h.openPage({ wc: '0', ...query })
    for (const [i, b] of BRANDS.entries()) await installEthereumWallet(page, { ...b, uuid: `w${i}`, privateKey: generatePrivateKey() })
    await installSolanaWallet(page, { secretKey: crypto.getRandomValues(new Uint8Array(32)) })
    await page.reload()
    await h.waitReady(page)
    await h.openModal(page)
    await page.click('[data-method="wallet"]')
    await page.waitForSelector('[data-portico-wallet-list] [data-method^="wallet:"]')
    return page
  }
  const rows = (page: Page) => page.$$eval('[data-portico-wallet-list] .portico-list-label', (els) => els.map((e) => e.textContent))

  it('more than 4 wallets: 3 and More wallets; both chains, then Ethereum only, then Solana only', async () => {
    const both = await openWithWallets({})
    expect(await rows(both)).toEqual(['MetaMask', 'Rainbow', 'Zerion', 'More wallets'])
    await h.screenshot(both, 'external-wallet-list-overflow')
    await both.click('[data-method="wallet:more"]')
    expect(await rows(both)).toEqual(['MetaMask', 'Rainbow', 'Zerion', 'Rabby Wallet', 'Brave Wallet', 'Phantom'])
    expect(await both.textContent('[data-method="wallet:wallet-standard:Phantom"]')).toContain('Solana')
    // The brands' inline SVG marks draw under the page's CSP (no data: image).
    expect(await both.$$eval('[data-portico-wallet-list] svg[data-portico-brand]', (els) => els.map((e) => e.getAttribute('data-portico-brand')))).toEqual([
      'metamask',
      'rainbow',
      'zerion',
      'rabby_wallet',
      'brave_wallet',
      'phantom',
    ])
    await h.screenshot(both, 'external-wallet-list-all')

    const eth = await openWithWallets({ chains: 'ethereum-only' })
    await eth.click('[data-method="wallet:more"]')
    expect(await rows(eth)).toEqual(['MetaMask', 'Rainbow', 'Zerion', 'Rabby Wallet', 'Brave Wallet'])

    const sol = await openWithWallets({ chains: 'solana-only' })
    expect(await rows(sol)).toEqual(['Phantom'])
  })

  it('walletList orders the wallets; a listed brand that is not here opens the install screen', async () => {
    const page = await openWithWallets({ wallets: 'coinbase_wallet,rabby_wallet,phantom,detected_ethereum_wallets', chains: 'ethereum-and-solana' })
    expect(await rows(page)).toEqual(['Coinbase Wallet', 'Rabby Wallet', 'Phantom', 'More wallets'])
    await page.click('[data-method="wallet:more"]')
    expect(await rows(page)).toEqual(['Coinbase Wallet', 'Rabby Wallet', 'Phantom', 'MetaMask', 'Rainbow', 'Zerion', 'Brave Wallet'])
    await page.click('[data-method="wallet:brand:coinbase_wallet"]')
    await page.waitForSelector('[role=dialog][data-screen=wallet-install]')
    const dialog = page.locator('[role=dialog]')
    expect(await dialog.locator('.portico-title').textContent()).toBe('Get Coinbase Wallet')
    expect(await dialog.getByRole('link', { name: 'Install Coinbase Wallet' }).getAttribute('href')).toBe('https://www.coinbase.com/wallet/downloads')
    expect(await dialog.getByRole('link', { name: 'Learn more about wallets' }).getAttribute('href')).toBe('https://ethereum.org/en/wallets/')
    await h.screenshot(page, 'external-wallet-install')
  })

  it('the install screen in the dark theme, without serious axe findings', async () => {
    const page = await h.openPage({ wallets: 'rainbow,detected_wallets', theme: 'dark' }, { bypassCSP: true })
    await h.openModal(page)
    await page.click('[data-method="wallet"]')
    await page.click('[data-method="wallet:brand:rainbow"]')
    await page.waitForSelector('[role=dialog][data-screen=wallet-install] a.portico-button')
    expect(await page.locator('[role=dialog] .portico-title').textContent()).toBe('Get Rainbow')
    await h.screenshot(page, 'external-wallet-install-dark')
    expect(await h.axe(page)).toEqual([])
  })

  it("an app with only Solana wallets and none installed says '... like Phantom or Solflare'", async () => {
    const page = await h.openPage({ app: SOLANA_APP, chains: 'app' })
    await h.openModal(page)
    await page.click('[data-method="wallet"]')
    await page.waitForSelector('[data-portico-no-wallets]', { timeout: 10_000 })
    expect(await page.textContent('[data-portico-no-wallets]')).toBe(
      'No wallets available: Please download an external wallet provider, like Phantom or Solflare',
    )
    await h.screenshot(page, 'external-solana-only-no-wallets')
  })
})

describe('portico/wagmi: wagmi reads the user\'s wallets', () => {
  it('after a wallet login wagmi sees the external wallet as its account and signs with it', async () => {
    const page = await h.openPage({ chains: 'ethereum-only' })
    const wallet = await installEthereumWallet(page, { privateKey: generatePrivateKey(), chainId: 1 })
    await page.reload()
    await h.waitReady(page)
    // Logged out: wagmi cannot connect.
    expect(await page.evaluate(() => (window as any).porticoWagmi().then(() => 'connected', (e: Error) => e.message))).toContain('Log in')
    await h.openModal(page)
    await page.click('[data-method="wallet"]')
    await page.click('[data-method="wallet:eip6963:io.metamask"]')
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged in', undefined, { timeout: 20_000 })
    const seen = await page.evaluate(() => (window as any).porticoWagmi())
    expect(seen).toMatchObject({ status: 'connected', connector: 'portico', address: wallet.address, addresses: [wallet.address] })
    expect(await verifyMessage({ address: wallet.address, message: seen.message, signature: seen.signatures[0].signature })).toBe(true)
  })
})

describe('portico/wagmi with embedded and external wallets', () => {
  it('an e-mail user with an embedded wallet links an external one; wagmi lists and signs with both', { timeout: 120_000 }, async () => {
    // approvals=0: wagmi signs headless here (the approval screens have their own spec).
    const page = await h.openPage({ frame: h.frameUrl!, rpc: evm.rpc, createOnLogin: 'users-without-wallets', chains: 'ethereum-only', approvals: '0' })
    const external = await installEthereumWallet(page, { privateKey: generatePrivateKey(), chainId: 1 })
    await page.reload()
    await h.waitReady(page)
    const email = `ext-${Date.now().toString(36)}@example.com`
    await h.enterEmailCode(page, email)
    // The embedded Ethereum wallet is created on login.
    const embedded = (await (
      await page.waitForFunction(
        () => {
          const k = (window as any).portico
          const w = k.session.authenticated && k.plugin('embedded-wallet')?.wallets().find((x: any) => x.chainType === 'ethereum')
          return w && !document.querySelector('[role=dialog]') ? w.address : null
        },
        undefined,
        { timeout: 60_000 },
      )
    ).jsonValue()) as Hex
    await page.getByRole('button', { name: 'Link wallet', exact: true }).click()
    await page.click('[data-method="wallet:eip6963:io.metamask"]')
    await page.waitForFunction(() => document.querySelector('[data-testid=result]')?.textContent === 'complete: link', undefined, { timeout: 20_000 })
    const seen = await page.evaluate(() => (window as any).porticoWagmi())
    expect(seen).toMatchObject({ status: 'connected', connector: 'portico', addresses: [external.address, embedded] })
    for (const { address, signature } of seen.signatures) {
      expect(await verifyMessage({ address, message: seen.message, signature })).toBe(true)
    }
    await h.screenshot(page, 'external-wagmi-both')
  })
})

describe('connect only (useConnectWallet)', () => {
  it("logged out: the connect-only list, the wallet's account without a signature, the user stays logged out", async () => {
    const page = await h.openPage({ chains: 'ethereum-only' })
    const wallet = await installEthereumWallet(page, { privateKey: generatePrivateKey() })
    await page.reload()
    await h.waitReady(page)
    const result = page.evaluate(() => (window as any).porticoConnectWallet())
    await page.waitForSelector('[data-portico-wallet-list][data-portico-connect-only] [data-method="wallet:eip6963:io.metamask"]')
    expect(await page.locator('[role=dialog] .portico-title').textContent()).toBe('Connect a wallet')
    await h.screenshot(page, 'external-connect-only')
    await page.click('[data-method="wallet:eip6963:io.metamask"]')
    await page.waitForSelector('[data-portico-wallet-status=done]', { state: 'attached' })
    expect(await page.locator('[role=dialog] .portico-title').textContent()).toBe('Successfully connected')
    await h.screenshot(page, 'external-connect-only-connected')
    expect(await result).toEqual({ address: wallet.address, walletClientType: 'metamask', connectorType: 'injected', linked: false })
    expect(wallet.requests).not.toContain('personal_sign')
    expect(await page.textContent('[data-testid=status]')).toBe('logged out')
  })

  it('an injected wallet connected before is listed connected after a reload without any prompt (eth_accounts only)', async () => {
    const page = await h.openPage({ chains: 'ethereum-only' })
    const wallet = await installEthereumWallet(page, { privateKey: generatePrivateKey() })
    await page.reload()
    await h.waitReady(page)
    const external = () => page.evaluate(() => (window as any).porticoExternalWallets())
    expect(await external()).toEqual([])
    const result = page.evaluate(() => (window as any).porticoConnectWallet())
    await page.click('[data-method="wallet:eip6963:io.metamask"]')
    expect(await result).toMatchObject({ address: wallet.address })
    const listed = [{ address: wallet.address, walletClientType: 'metamask', connectorType: 'injected', linked: false }]
    expect(await external()).toEqual(listed)

    const before = wallet.requests.length
    await page.reload()
    await h.waitReady(page)
    await expect.poll(external, { timeout: 15_000 }).toEqual(listed)
    const asked = wallet.requests.slice(before)
    expect(asked).toContain('eth_accounts')
    expect(asked).not.toContain('eth_requestAccounts')
    expect(asked).not.toContain('personal_sign')
    expect(await page.locator('[role=dialog]').count()).toBe(0)
    expect(await page.textContent('[data-testid=status]')).toBe('logged out')
  })
})
