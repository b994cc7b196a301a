/**
 * Smart wallets end to end (issue 29): the demo app with portico/plugins/smart-wallet, the
 * embedded wallet's frame on its own origin, the reference server (link, ERC-7677 paymaster
 * with a daily limit of 2), and the local ERC-4337 stack (anvil, EntryPoint v0.7, Safe 1.4.1
 * with the 4337 module, the VerifyingPaymaster, the Alto bundler). Nothing is mocked: the
 * owner signs in the wallet frame, the bundler submits real user operations.
 *
 * One user, in order: the smart account is computed, linked (ERC-6492 before deployment) and
 * shown; a sponsored ERC-20 transfer deploys it; a batched approve + transfer is one sponsored
 * user operation; a message it signs verifies (ERC-1271 now that it is deployed); the third
 * operation of the day is outside the paymaster policy — no ETH, so 'Add funds', and closing
 * rejects with 4001 — then, once the account holds ETH, the account pays for it.
 * Then a SIWE login with a Safe as an external wallet: before deployment (ERC-6492) and after
 * (ERC-1271), the same user.
 * Then EIP-7702 (smartWallet({ eip7702: true }), a second app on the same server and chain): the
 * embedded wallet's own address is upgraded in place. The first send asks 'Upgrade your
 * wallet' on the wallet service's authorisation page; Not now rejects with 4001 and changes
 * nothing; Allow signs the authorisation there, and the sponsored transfer delegates the EOA to
 * Simple7702Account (EntryPoint v0.8) with its address and no ETH of its own. The next send asks
 * nothing more; refusing its approval screen rejects with 4001.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Frame, Page } from 'playwright-core'
import { createPublicClient, createWalletClient, http, parseEther, type Abi, type Address, type Hex, type PublicClient } from 'viem'
import { startAaStack, type AaStack } from '../../examples/stand-ins/aa/stack'
import { freePort } from '../../examples/server/test/helpers'
import { DEV_ACCOUNTS } from '../chains/evm'
import { compileTestContracts } from '../chains/contracts'
import { entryPoint07Address } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { toSafeSmartAccount } from 'permissionless/accounts'
import { installEthereumWallet } from './wallets/ethereum'
import { startHarness, type Harness } from './harness'
import { button, clearResult, dialog, result as resultLine } from './demo-page'

const APP = 'portico-test-apv-smartw01'
const APP_7702 = 'portico-test-apv-sw7702-1'
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as Address
// DEV_ACCOUNTS[1] and [2] are Alto's executor and utility keys: the test sends from 0 and 3 only.

let h: Harness
let aa: AaStack
let pub: PublicClient
let token: Address
let tokenAbi: Abi

beforeAll(async () => {
  const [stack, apiPort] = await Promise.all([startAaStack(), freePort()])
  aa = stack
  pub = createPublicClient({ chain: aa.chain, transport: http(aa.rpc) }) as PublicClient
  // The test ERC-20 (TUSD, 6 decimals, open mint) on the stack's chain.
  const c = compileTestContracts()
  tokenAbi = c.TestToken.abi
  const deployer = createWalletClient({ account: DEV_ACCOUNTS[0], chain: aa.chain, transport: http(aa.rpc) })
  const hash = await deployer.deployContract({ abi: c.TestToken.abi, bytecode: c.TestToken.bytecode, args: ['Test USD', 'TUSD', 6] })
  token = (await pub.waitForTransactionReceipt({ hash })).contractAddress!
  const api = `http://127.0.0.1:${apiPort}`
  h = await startHarness({
    walletFrame: true,
    apiPort,
    // The server checks smart-account SIWE signatures (ERC-1271 / ERC-6492) on the stack's chain.
    server: { rpcUrls: { 31337: aa.rpc } },
    csp: { connectSrc: [aa.rpc, aa.bundlerUrl] },
    extraApps: [
      {
        id: APP,
        name: 'Portico Smart Wallet Test',
        logoUrl: null,
        accentColor: '#5b4cdb',
        theme: 'light',
        loginMethods: ['email', 'wallet'],
        legal: { termsAndConditionsUrl: null, privacyPolicyUrl: null, requireUsersAcceptTerms: false },
        allowedOrigins: [],
        embeddedWallets: { createOnLogin: 'users-without-wallets' },
        landingHeader: 'Log in or sign up',
        // SIWE messages on the stack's chain (the server checks smart-account signatures there).
        supportedChains: [1, 31337],
        smartWallets: {
          enabled: true,
          type: 'safe',
          version: '1.4.1',
          networks: [{ chainId: 31337, bundlerUrl: aa.bundlerUrl, paymasterUrl: `${api}/api/v1/paymaster`, rpcUrl: aa.rpc, paymasterAddress: aa.paymaster.address }],
          paymaster: { signerKey: aa.paymaster.signerKey, policy: { chains: [31337], dailyLimitPerUser: 2 } },
        },
      },
      {
        id: APP_7702,
        name: 'Portico 7702 Test',
        logoUrl: null,
        accentColor: '#5b4cdb',
        theme: 'light',
        loginMethods: ['email'],
        legal: { termsAndConditionsUrl: null, privacyPolicyUrl: null, requireUsersAcceptTerms: false },
        allowedOrigins: [],
        embeddedWallets: { createOnLogin: 'users-without-wallets' },
        landingHeader: 'Log in or sign up',
        supportedChains: [1, 31337],
        smartWallets: {
          enabled: true,
          type: 'safe',
          version: '1.4.1',
          networks: [{ chainId: 31337, bundlerUrl: aa.bundlerUrl, paymasterUrl: `${api}/api/v1/paymaster`, rpcUrl: aa.rpc, paymasterAddress08: aa.v08.paymaster }],
          paymaster: { signerKey: aa.paymaster.signerKey, policy: { chains: [31337], dailyLimitPerUser: 5 } },
        },
      },
    ],
  })
}, 180_000)

afterAll(async () => {
  await h?.close()
  aa?.stop()
})

/** Receipts on the local chain with a bundler in between: up to 90 s on a busy machine. */
const result = (page: Page, prefix: string) => resultLine(page, prefix, 90_000)
const balanceOf = (a: Address) => pub.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [a] }) as Promise<bigint>

describe('smart wallets through the embedded wallet', { timeout: 240_000 }, () => {
  let page: Page
  let sw: Address
  let owner: Address

  it('a new user gets a smart account: computed, linked (ERC-6492 before deployment) and shown; user.smartWallet', async () => {
    page = await h.openPage({ app: APP, frame: h.frameUrl!, rpc: aa.rpc, sw: JSON.stringify(aa.factories.safe), swToken: token, swTo: RECIPIENT })
    await h.enterEmailCode(page, `sw-${Date.now().toString(36)}@example.com`)
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    owner = (await page.waitForSelector('[data-testid=wallet-ethereum]').then((e) => e.textContent())) as Address
    await page.waitForFunction(() => document.querySelector('[data-testid=sw-status]')?.textContent === 'ready', undefined, { timeout: 60_000 })
    sw = (await page.textContent('[data-testid=sw-address]')) as Address
    expect(sw).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(sw.toLowerCase()).not.toBe(owner.toLowerCase())
    // Counterfactual: no code yet; linked on the user record as the spec's smart_wallet.
    expect(await pub.getCode({ address: sw })).toBeUndefined()
    const user = JSON.parse((await page.textContent('[data-testid=user]'))!)
    expect(user.smartWallet).toMatchObject({ type: 'smart_wallet', address: sw, smartWalletType: 'safe' })
    expect(user.linkedAccounts.filter((a: { type: string }) => a.type === 'smart_wallet')).toHaveLength(1)
    await h.screenshot(page, 'smart-wallet-panel')
  })

  it('a sponsored ERC-20 transfer: the screen shows the smart account and "Sponsored"; the first operation deploys the account', async () => {
    // The account's tokens (open mint, from the deployer).
    const mint = await createWalletClient({ account: DEV_ACCOUNTS[0], chain: aa.chain, transport: http(aa.rpc) }).writeContract({ address: token, abi: tokenAbi, functionName: 'mint', args: [sw, 10_000_000n] })
    await pub.waitForTransactionReceipt({ hash: mint })
    await clearResult(page)
    await page.click('[data-testid=sw-transfer]')
    await page.waitForSelector(`${dialog('approvals-transaction')} [data-testid=approvals-token-amount]:text-is("1.5 TUSD")`)
    await page.click(button('approvals-transaction', 'Continue'))
    await page.waitForSelector(`${dialog('approvals-transaction')} dd:has-text("Sponsored")`)
    await h.screenshot(page, 'smart-wallet-sponsored')
    await page.click(button('approvals-transaction', 'Approve'))
    await page.waitForSelector(`${dialog('approvals-transaction')} .portico-title:text-is("Transaction complete!")`, { timeout: 90_000 })
    await page.click(button('approvals-transaction', 'All Done'))
    const hash = (await result(page, 'sw sent:')) as Hex
    const receipt = await pub.getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(await pub.getCode({ address: sw })).toMatch(/^0x[0-9a-f]{10,}/)
    expect(await balanceOf(RECIPIENT)).toBe(1_500_000n)
    // Sponsored: the account holds no ETH and paid none.
    expect(await pub.getBalance({ address: sw })).toBe(0n)
  })

  it('a batched approve + transfer is one sponsored user operation; a message the deployed account signs verifies (ERC-1271)', async () => {
    await clearResult(page)
    await page.click('[data-testid=sw-batch]')
    await page.waitForSelector(`${dialog('approvals-transaction')}:has-text("Batch of 2 calls")`)
    await page.click(button('approvals-transaction', 'Continue'))
    await page.waitForSelector(`${dialog('approvals-transaction')} dd:has-text("Sponsored")`)
    await page.click(button('approvals-transaction', 'Approve'))
    await page.click(button('approvals-transaction', 'All Done'))
    const hash = (await result(page, 'sw batch:')) as Hex
    expect((await pub.getTransactionReceipt({ hash })).status).toBe('success')
    expect(await balanceOf(RECIPIENT)).toBe(2_000_000n)
    expect(await pub.readContract({ address: token, abi: tokenAbi, functionName: 'allowance', args: [sw, RECIPIENT] })).toBe(2_000_000n)

    await clearResult(page)
    await page.click('[data-testid=sw-sign]')
    await page.click(button('approvals-sign', 'Sign and continue'))
    const sig = (await result(page, 'sw signature:')) as Hex
    expect(await pub.verifyMessage({ address: sw, message: 'Hello from a Portico smart wallet', signature: sig })).toBe(true)
    expect(await pub.verifyMessage({ address: owner, message: 'Hello from a Portico smart wallet', signature: sig })).toBe(false)
  })

  it('outside the paymaster policy (third operation of the day): not sponsored, "Add funds", closing rejects with 4001; funded, the account pays', async () => {
    await clearResult(page)
    await page.click('[data-testid=sw-transfer]')
    await page.click(button('approvals-transaction', 'Continue'))
    await page.waitForSelector(`${dialog('approvals-transaction')} [data-testid=approvals-insufficient]`)
    await page.waitForSelector(
      `${dialog('approvals-transaction')}:has-text("Gas is not sponsored for this transaction: Sponsorship refused: the daily limit of 2 sponsored operations per user is reached. Your smart wallet pays the network fee.")`,
    )
    await h.screenshot(page, 'smart-wallet-not-sponsored')
    await page.click('[role=dialog] [data-portico-close]')
    expect(await result(page, 'error:')).toMatch(/^4001 /)

    await createWalletClient({ account: DEV_ACCOUNTS[3], chain: aa.chain, transport: http(aa.rpc) })
      .sendTransaction({ to: sw, value: parseEther('1') })
      .then((hash) => pub.waitForTransactionReceipt({ hash }))
    await clearResult(page)
    await page.click('[data-testid=sw-transfer]')
    await page.click(button('approvals-transaction', 'Continue'))
    await page.waitForSelector(`${dialog('approvals-transaction')} [data-testid=approvals-total]:has-text("ETH")`)
    await page.click(button('approvals-transaction', 'Approve'))
    await page.click(button('approvals-transaction', 'All Done'))
    const hash = (await result(page, 'sw sent:')) as Hex
    expect((await pub.getTransactionReceipt({ hash })).status).toBe('success')
    expect(await balanceOf(RECIPIENT)).toBe(3_500_000n)
    const left = await pub.getBalance({ address: sw })
    expect(left < parseEther('1')).toBe(true)
    // The price source is not run here: the fee's dollar value is missing (424), nothing else fails.
    expect(h.consoleErrors(page).filter((e) => !/status of 424/.test(e))).toEqual([])
  })
})

describe('a SIWE login with a Safe smart account', { timeout: 120_000 }, () => {
  it('logs in before deployment (ERC-6492: the signature carries the factory call) and after (ERC-1271 on chain)', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const safe = await toSafeSmartAccount({ client: pub, owners: [owner], version: '1.4.1', entryPoint: { address: entryPoint07Address, version: '0.7' }, ...aa.factories.safe })
    const loginWithSafe = async () => {
      const page = await h.openPage({ app: APP, frame: h.frameUrl!, rpc: aa.rpc })
      await installEthereumWallet(page, { address: safe.address, chainId: 31337, sign: (raw) => safe.signMessage({ message: { raw } }) })
      await page.reload()
      await h.waitReady(page)
      await h.openModal(page)
      await page.click('[data-method="wallet"]')
      await page.click('[data-method="wallet:eip6963:io.metamask"]')
      await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged in', undefined, { timeout: 30_000 })
      const user = JSON.parse((await page.textContent('[data-testid=user]'))!)
      expect(user.wallet.address.toLowerCase()).toBe(safe.address.toLowerCase())
      await page.context().close()
      return user.id as string
    }
    expect(await pub.getCode({ address: safe.address })).toBeUndefined()
    const first = await loginWithSafe()
    // Deployed through its factory (what its first user operation would do); the same user logs in again by ERC-1271.
    const { factory, factoryData } = await safe.getFactoryArgs()
    const deployer = createWalletClient({ account: DEV_ACCOUNTS[0], chain: aa.chain, transport: http(aa.rpc) })
    await pub.waitForTransactionReceipt({ hash: await deployer.sendTransaction({ to: factory!, data: factoryData! }) })
    expect(await pub.getCode({ address: safe.address })).toMatch(/^0x[0-9a-f]{10,}/)
    expect(await loginWithSafe()).toBe(first)
  })
})

/** The authorisation page inside 'Upgrade your wallet' (the wallet service's origin). */
async function authorizeFrame(page: Page): Promise<Frame> {
  await page.waitForSelector('[role=dialog][data-screen=smart-wallet-authorize] iframe[data-testid=smart-wallet-authorize-frame]')
  for (;;) {
    const f = page.frames().find((x) => x.url().includes('/embedded-wallets/authorize') && !x.isDetached())
    if (f) return f
    await page.waitForEvent('framenavigated')
  }
}

describe('EIP-7702: the embedded wallet upgraded in place', { timeout: 240_000 }, () => {
  it('Not now rejects with 4001; Allow on the wallet service’s page signs the authorisation; the sponsored transfer keeps the address', async () => {
    const page = await h.openPage({ app: APP_7702, frame: h.frameUrl!, rpc: aa.rpc, sw: JSON.stringify(aa.factories.safe), sw7702: '1', swToken: token, swTo: RECIPIENT })
    await h.enterEmailCode(page, `sw7702-${Date.now().toString(36)}@example.com`)
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    const eoa = (await page.waitForSelector('[data-testid=wallet-ethereum]').then((e) => e.textContent())) as Address
    await page.waitForFunction(() => document.querySelector('[data-testid=sw-status]')?.textContent === 'ready', undefined, { timeout: 60_000 })
    // The client's address is the embedded wallet's own; nothing is delegated yet.
    expect((await page.textContent('[data-testid=sw-address]'))!.toLowerCase()).toBe(eoa.toLowerCase())
    expect(await pub.getCode({ address: eoa })).toBeUndefined()
    const mint = await createWalletClient({ account: DEV_ACCOUNTS[0], chain: aa.chain, transport: http(aa.rpc) }).writeContract({ address: token, abi: tokenAbi, functionName: 'mint', args: [eoa, 10_000_000n] })
    await pub.waitForTransactionReceipt({ hash: mint })
    const before = await balanceOf(RECIPIENT)
    const deposit = await aa.v08.deposit()

    // Not now: 4001, nothing signed, nothing on chain.
    await clearResult(page)
    await page.click('[data-testid=sw-transfer]')
    let frame = await authorizeFrame(page)
    await frame.waitForSelector('[data-testid=authorize-contract]')
    expect(await frame.textContent('[data-testid=authorize-contract]')).toContain('Simple7702Account (EntryPoint v0.8)')
    expect(await frame.getAttribute('[data-testid=authorize-contract]', 'title')).toBe('0xe6Cae83BdE06E4c305530e199D7217f42808555B')
    expect(await frame.getAttribute('[data-testid=authorize-wallet]', 'title')).toBe(eoa)
    expect(await frame.textContent('[data-testid=authorize-chain]')).toContain('Chain 31337')
    expect(await frame.textContent('.c-title')).toBe('Portico 7702 Test wants to upgrade your wallet to a smart account.')
    // Shown for a moment (Allow armed): the dialog has settled where the click lands.
    await frame.waitForSelector('main[data-armed=true]')
    await frame.click('[data-testid=authorize-decline]')
    expect(await result(page, 'error:')).toMatch(/^4001 User rejected the request\./)
    expect(await pub.getCode({ address: eoa })).toBeUndefined()

    // Allow (armed once shown; a real click in the page): signed there, then the approval screen says 'Sponsored'.
    await clearResult(page)
    await page.click('[data-testid=sw-transfer]')
    frame = await authorizeFrame(page)
    await frame.waitForSelector('main[data-armed=true]')
    // The host page's own script (what an XSS on the host could run) asks for a signature by message, even for a drainer: refused.
    const forged = await page.evaluate(
      async ({ token, eoa }) => {
        const ask = (win: Window, origin: string, payload: unknown) =>
          new Promise<unknown>((resolve) => {
            const id = `forged-${Math.random()}`
            const on = (e: MessageEvent) => {
              if (e.data?.id !== id) return
              window.removeEventListener('message', on)
              resolve(e.data.error ?? e.data.data)
            }
            window.addEventListener('message', on)
            win.postMessage({ protocol: 'portico-wallet-frame/1', id, type: 'smart-wallet:authorize-7702', payload }, origin)
          })
        const frames = [...document.querySelectorAll('iframe')] as HTMLIFrameElement[]
        const hidden = frames.find((f) => new URL(f.src).pathname.endsWith('/embedded-wallets'))!
        const page = frames.find((f) => new URL(f.src).pathname.endsWith('/embedded-wallets/authorize'))!
        const origin = new URL(hidden.src).origin
        const entropyId = (window as any).portico.plugin('embedded-wallet').wallets()[0].entropyId
        const payload = { accessToken: token, entropyId, entropyIdVerifier: 'ethereum-address-verifier', address: eoa, chainId: 31337, contractAddress: '0x000000000000000000000000000000000000dEaD', nonce: 0 }
        return { hidden: await ask(hidden.contentWindow!, origin, payload), second: await ask(page.contentWindow!, origin, payload) }
      },
      { token: await page.evaluate(() => (window as any).portico.session.getAccessToken() as Promise<string>), eoa },
    )
    expect(forged.hidden).toEqual({ type: 'invalid_request_arguments', message: 'An EIP-7702 authorisation is signed on the authorisation page only.' })
    expect(forged.second).toEqual({ type: 'invalid_request_arguments', message: 'This authorisation page has already been used.' })
    await h.screenshot(page, 'smart-wallet-7702-authorize')
    await frame.click('[data-testid=authorize-allow]')
    await page.waitForSelector(`${dialog('approvals-transaction')} [data-testid=approvals-token-amount]:text-is("1.5 TUSD")`)
    await page.click(button('approvals-transaction', 'Continue'))
    await page.waitForSelector(`${dialog('approvals-transaction')} dd:has-text("Sponsored")`)
    await page.click(button('approvals-transaction', 'Approve'))
    await page.waitForSelector(`${dialog('approvals-transaction')} .portico-title:text-is("Transaction complete!")`, { timeout: 90_000 })
    await page.click(button('approvals-transaction', 'All Done'))
    const hash = (await result(page, 'sw sent:')) as Hex
    expect((await pub.getTransactionReceipt({ hash })).status).toBe('success')
    // Same address, now delegated to Simple7702Account; the tokens moved; the paymaster paid, the EOA holds no ETH.
    expect((await pub.getCode({ address: eoa }))!.toLowerCase()).toBe('0xef0100e6cae83bde06e4c305530e199d7217f42808555b')
    expect(await balanceOf(RECIPIENT)).toBe(before + 1_500_000n)
    expect(await balanceOf(eoa)).toBe(8_500_000n)
    expect(await pub.getBalance({ address: eoa })).toBe(0n)
    expect(await aa.v08.deposit()).toBeLessThan(deposit)

    // Delegated already: no authorisation asked; refusing the approval screen rejects with 4001.
    await clearResult(page)
    await page.click('[data-testid=sw-transfer]')
    await page.waitForSelector(`${dialog('approvals-transaction')} [data-testid=approvals-token-amount]:text-is("1.5 TUSD")`)
    expect(await page.$('[role=dialog][data-screen=smart-wallet-authorize]')).toBeNull()
    await page.click('[role=dialog] [data-portico-close]')
    expect(await result(page, 'error:')).toMatch(/^4001 /)
    expect(await balanceOf(eoa)).toBe(8_500_000n)
    expect(h.consoleErrors(page).filter((e) => !/status of 424/.test(e))).toEqual([])
  })
})
