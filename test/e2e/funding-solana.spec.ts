/**
 * Funding from Solana end to end (issue 17), in Chromium against the real server and the SVM
 * stand-in (litesvm): an injected wallet-standard wallet backed by a real ed25519 key pair
 * funds a Solana address (`solana:signAndSendTransaction`; `solana:signTransaction` with the
 * app sending), with the spec's texts for not enough funds and a rejection; the balance moves on
 * the SVM. The SOL amount's USD value, and 'Unable to fetch SOL price' while the price source
 * fails. Every new screen is screenshotted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { randomBytes } from 'node:crypto'
import { base58 } from '@scure/base'
import { startSvm, type Svm } from '../chains/svm'
import { startHarness, type Harness, listenLocal } from './harness'
import { installSolanaWallet } from './wallets/solana'
import { fund, fundResult } from './funding-page'
import { createPriceStandIn } from '../../examples/stand-ins/price/handler'
import { createBridgeStandIn, SOLANA_FEE_LAMPORTS, SOLANA_SOLVER } from '../../examples/stand-ins/bridge/server'
import { parseEther } from 'viem'
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts'
import { startEvm, type Evm } from '../chains/evm'

const FND = 'w17-funding-solana-000001'
let h: Harness
let svm: Svm
let evm: Evm
const relay = createBridgeStandIn()
const price = createPriceStandIn()
let priceDown = false
const closers: (() => void)[] = []
const env = { ...process.env }

const listen = (fetch: (r: Request) => Response | Promise<Response>) => listenLocal(fetch, closers)

beforeAll(async () => {
  ;[svm, evm] = await Promise.all([startSvm(), startEvm()])
  const br = await listen(relay.app.fetch)
  // The reference server's /token_price asks this price source (read when the server is built).
  process.env.PORTICO_PRICE_URL = await listen((r) => (priceDown ? Response.json({ error: 'unavailable' }, { status: 503 }) : price.fetch(r)))
  h = await startHarness({
    connectSrc: [svm.rpc, evm.rpc, br],
    extraApps: (origin) => [
      {
        id: FND,
        name: 'Funding from Solana test',
        loginMethods: ['email', 'wallet'],
        allowedOrigins: [origin],
        funding: { methods: ['wallet', 'manual'], crossChainBridgingEnabled: false, bridge: { apiUrl: br, testnetApiUrl: br } },
      },
    ],
  })
}, 180_000)
afterAll(async () => {
  process.env = env
  await h?.close()
  svm?.stop()
  evm?.stop()
  for (const c of closers) c()
})

const solAddress = () => base58.encode(randomBytes(32))
const cluster = () => ({ name: 'mainnet-beta', rpcUrl: svm.rpc })

async function openWithSolanaWallet(options: { signOnly?: boolean } = {}) {
  // The wallet must be installed before the page's scripts run: open blank, install, then go.
  const context = await h.newContext()
  const page = await context.newPage()
  const errors: string[] = []
  page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())))
  page.on('pageerror', (e) => void errors.push(`pageerror: ${e.message}`))
  const wallet = await installSolanaWallet(page, { secretKey: randomBytes(32), rpc: svm.rpc, signOnly: options.signOnly })
  await page.goto(`${h.appUrl}/?app=${FND}&api=${encodeURIComponent(h.apiUrl)}&svm=${encodeURIComponent(svm.rpc)}&evmRpc=${encodeURIComponent(evm.rpc)}`)
  await h.waitReady(page)
  return { page, wallet, errors }
}

const waitScreen = (page: Page, id: string) => page.waitForSelector(`[role=dialog][data-screen=${id}]`)
const waitTitle = (page: Page, text: string) =>
  page.waitForSelector(`[role=dialog] .portico-title:text-is("${text}")`).catch(async (e) => {
    await h.screenshot(page, `failed-${text.replace(/\W+/g, '-')}`)
    throw e
  })

describe('funding from Solana', { timeout: 120_000 }, () => {
  it("the SOL amount's USD value; 'Unable to fetch SOL price' while the price source fails", async () => {
    // First in this file: the server caches a fetched price for 60 s.
    priceDown = true
    const { page } = await openWithSolanaWallet()
    await fund(page, { address: solAddress(), chainType: 'solana', cluster: cluster(), amount: '0.1' })
    await waitScreen(page, 'funding-methods')
    await page.waitForSelector('[role=dialog] [role=alert][data-funding-price-error]:text-is("Unable to fetch SOL price")')
    expect(await page.$('[data-funding-usd]')).toBeNull()
    await h.screenshot(page, 'funding-sol-price-error')
    await page.keyboard.press('Escape')
    await fundResult(page)

    priceDown = false
    await fund(page, { address: solAddress(), chainType: 'solana', cluster: cluster(), amount: '0.1' })
    await waitScreen(page, 'funding-methods')
    await page.waitForSelector('[role=dialog] [data-funding-usd]:text-is("≈ $15.00 USD")')
    expect(await page.$('[data-funding-price-error]')).toBeNull()
    await h.screenshot(page, 'funding-sol-price')
  })

  it('from an external Solana wallet: success moves the SOL; not enough funds; rejected, then Try again', async () => {
    const { page, wallet, errors } = await openWithSolanaWallet()
    await svm.airdrop(wallet.address, 2_000_000_000n)
    const address = solAddress()
    await fund(page, { address, chainType: 'solana', cluster: cluster(), amount: '0.1' })
    await waitScreen(page, 'funding-methods')
    await page.click('[data-method=funding-wallet]')
    await waitScreen(page, 'funding-wallets')
    await page.waitForSelector('[data-method="wallet-standard:Phantom"]')
    await h.screenshot(page, 'funding-wallets-solana')
    await page.click('[data-method="wallet-standard:Phantom"]')
    await waitTitle(page, 'Transfer complete')
    await h.screenshot(page, 'funding-solana-wallet-success')
    // Closes by itself after 4 s.
    expect(await fundResult(page)).toEqual({ status: 'completed', method: 'wallet' })
    expect(await svm.balance(address)).toBe(100_000_000)
    expect(await svm.balance(wallet.address)).toBe(2_000_000_000 - 100_000_000 - 5000)
    expect(wallet.transactions).toMatchObject([{ mode: 'send', chain: 'solana:mainnet' }])

    await fund(page, { address, chainType: 'solana', cluster: cluster(), amount: '5' })
    await page.click('[data-method=funding-wallet]')
    await page.click('[data-method="wallet-standard:Phantom"]')
    await page.waitForSelector(`[role=dialog] [role=alert]:text-is("Wallet ${wallet.address} does not have enough funds.")`)
    await h.screenshot(page, 'funding-solana-wallet-not-enough')
    expect(wallet.transactions).toHaveLength(1)
    await page.keyboard.press('Escape')
    await fundResult(page)

    wallet.rejectTransactions(1)
    await fund(page, { address, chainType: 'solana', cluster: cluster(), amount: '0.2' })
    await page.click('[data-method=funding-wallet]')
    await page.click('[data-method="wallet-standard:Phantom"]')
    await page.waitForSelector('[role=dialog] [role=alert]:text-is("Transaction was rejected by the user")')
    await h.screenshot(page, 'funding-solana-wallet-rejected')
    expect(await svm.balance(address)).toBe(100_000_000)
    await page.click('[role=dialog] button:has-text("Try again")')
    await waitTitle(page, 'Transfer complete')
    expect(await fundResult(page)).toEqual({ status: 'completed', method: 'wallet' })
    expect(await svm.balance(address)).toBe(300_000_000)
    // The test wallet's announced icon is a data: URI, which the harness's strict CSP (no img-src data:) blocks;
    // the funding wallet list shows it as the EVM one does (noted in the report). Nothing else may log an error.
    expect(errors.filter((e) => !/^Loading the image 'data:image\/svg\+xml/.test(e))).toEqual([])
  })

  it('a wallet with only solana:signTransaction signs; the app sends through the cluster RPC', async () => {
    const { page, wallet } = await openWithSolanaWallet({ signOnly: true })
    await svm.airdrop(wallet.address, 1_000_000_000n)
    const address = solAddress()
    await fund(page, { address, chainType: 'solana', cluster: cluster(), amount: '0.25', defaultFundingMethod: 'wallet' })
    await waitScreen(page, 'funding-wallets')
    await page.click('[data-method="wallet-standard:Phantom"]')
    await waitTitle(page, 'Transfer complete')
    expect(await fundResult(page)).toEqual({ status: 'completed', method: 'wallet' })
    expect(await svm.balance(address)).toBe(250_000_000)
    expect(wallet.transactions).toMatchObject([{ mode: 'sign' }])
  })

  it('bridge from Solana: a quote with a Solana origin, the wallet signs and sends the instructions, the SOL reaches the solver', async () => {
    const { page, wallet } = await openWithSolanaWallet()
    await svm.airdrop(wallet.address, 2_000_000_000n)
    const before = await svm.balance(SOLANA_SOLVER)
    const address = privateKeyToAccount(generatePrivateKey()).address
    const base = { id: 8453, name: 'Base', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [evm.rpc] } } }
    await fund(page, { address, chain: base, amount: '0.02', crossChainBridgingEnabled: true })
    await waitScreen(page, 'funding-methods')
    await page.click('[data-method=bridge]')
    await page.waitForSelector('[role=dialog] button:has-text("Confirm with Phantom")')
    expect(await page.textContent('#portico-bridge-source option')).toBe('Solana · 2 SOL')
    expect(await page.textContent('[data-bridge-destination]')).toMatch(/on Base · 0 ETH$/)
    await h.screenshot(page, 'bridge-from-solana')
    await page.click('[role=dialog] button:has-text("Confirm with Phantom")')
    await waitTitle(page, 'Transfer complete')
    await h.screenshot(page, 'bridge-from-solana-success')
    expect(relay.quotes.at(-1)).toEqual({
      user: wallet.address,
      recipient: address,
      originChainId: 792703809,
      destinationChainId: 8453,
      originCurrency: '11111111111111111111111111111111',
      destinationCurrency: '0x0000000000000000000000000000000000000000',
      amount: parseEther('0.02').toString(),
      tradeType: 'EXACT_OUTPUT',
    })
    // 0.02 ETH at the stand-in's 0.05 ETH per SOL is 0.4 SOL, plus the relayer fee.
    expect(BigInt(await svm.balance(SOLANA_SOLVER)) - BigInt(before)).toBe(400_000_000n + SOLANA_FEE_LAMPORTS)
    expect(wallet.transactions).toMatchObject([{ mode: 'send', chain: 'solana:mainnet' }])
    expect(await page.textContent('[data-bridge-summary]')).toContain('0.401 SOL')
    await page.click('[role=dialog] button:has-text("Done")')
    expect(await fundResult(page)).toEqual({ status: 'completed', method: 'wallet' })
  })
})
