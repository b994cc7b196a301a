/**
 * Smart wallets on a real local ERC-4337 stack (issue 29): anvil, EntryPoint v0.7, the Safe
 * 1.4.1 + 4337 module factories and a VerifyingPaymaster from published bytecode, and the Alto
 * bundler (examples/stand-ins/aa/stack.ts), started once. Accounts and user operations are
 * permissionless's and viem/account-abstraction's; the owner keys stand in for embedded wallets.
 *
 * - GET /apps/{appId}/smart_wallets: the configured app, a disabled app, start-up refusals
 *   (an unsupported chain; 31337 outside development mode).
 * - POST /siwe/link_smart_wallet: a counterfactual Safe (ERC-6492), a deployed one (ERC-1271),
 *   forged and tampered signatures, a wrong chain, a type the app does not use, an EOA, someone
 *   else's account.
 * - POST /paymaster: a sponsored user operation through the bundler (the account deploys with
 *   it, the paymaster's deposit pays, the account holds no ETH), a batched one, then the policy's
 *   refusals (chain, sender not linked, daily limit, replayed nonce).
 * - EIP-7702 (EntryPoint v0.8, Simple7702Account): an EOA the user linked signs an authorisation,
 *   its first sponsored operation carries it (same address, the delegation designator on chain,
 *   no ETH), a second needs none; the policy (sender, replay) applies to v0.8 too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { concat, createPublicClient, http, parseEther, type Hex, type PublicClient } from 'viem'
import { createBundlerClient, createPaymasterClient, entryPoint07Address, entryPoint08Address, type SmartAccount } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { createSiweMessage } from 'viem/siwe'
import { isErc6492Signature } from 'viem/utils'
import { to7702SimpleSmartAccount, toSafeSmartAccount, toSimpleSmartAccount } from 'permissionless/accounts'
import { createPimlicoClient } from 'permissionless/clients/pimlico'
import { loadApps } from '../src/config'
import type { Store } from '../src/core/store'
import { APPS_FILE, DEMO, ORIGIN, TERMS, openTestStore, prodOptions, startTestServer, uniqueEmail, type TestServer } from './helpers'
import { startAaStack, type AaStack } from '../../stand-ins/aa/stack'
import { DEV_ACCOUNTS } from '../../../test/chains/evm'
import { delegationDesignator, upgradeTo7702, type AuthorizationRequest } from '../../../plugins/embedded-wallet/eip7702'

const CHAIN = 31337
/** An app with e-mail login only: its users still link smart wallets (a SIWE nonce for a bearer). */
const SW_ONLY = 'portico-test-smartw-00001'
let aa: AaStack
let store: Store
let s: TestServer
let pub: PublicClient
const demo = loadApps(APPS_FILE).get(DEMO)!

const smartWallets = (o: { chainId?: number; dailyLimitPerUser?: number } = {}) => ({
  enabled: true,
  type: 'safe',
  version: '1.4.1',
  networks: [
    {
      chainId: o.chainId ?? CHAIN,
      bundlerUrl: aa.bundlerUrl,
      paymasterUrl: 'http://127.0.0.1:8787/api/v1/paymaster',
      paymasterContext: { policy: 'portico-demo' },
      rpcUrl: aa.rpc,
      paymasterAddress: aa.paymaster.address,
      paymasterAddress08: aa.v08.paymaster,
    },
  ],
  paymaster: { signerKey: aa.paymaster.signerKey, policy: { chains: [o.chainId ?? CHAIN], dailyLimitPerUser: o.dailyLimitPerUser ?? 2, maxCostWei: '50000000000000000' } },
})

beforeAll(async () => {
  ;[aa, store] = await Promise.all([startAaStack(), openTestStore()])
  pub = createPublicClient({ chain: aa.chain, transport: http(aa.rpc) }) as PublicClient
  const emailOnly = { ...demo, id: SW_ONLY, loginMethods: ['email'], smartWallets: smartWallets() } as typeof demo
  s = await startTestServer(store, { apps: [{ ...demo, smartWallets: smartWallets() } as typeof demo, loadApps(APPS_FILE).get(TERMS)!, emailOnly] })
}, 120_000)

afterAll(async () => {
  await s?.close()
  await store?.close()
  aa?.stop()
})

const safeOf = (owner: PrivateKeyAccount, extra: { address?: Hex } = {}) =>
  toSafeSmartAccount({ client: pub, owners: [owner], version: '1.4.1', entryPoint: { address: entryPoint07Address, version: '0.7' }, ...aa.factories.safe, ...extra })

async function login(appId = DEMO): Promise<string> {
  const r = await s.emailLogin(uniqueEmail('sw'), { appId })
  expect(r.status).toBe(200)
  return r.body.token!
}

/** /siwe/init for the address, a SIWE message for it, signed by `sign`, posted to /siwe/link_smart_wallet. */
async function link(token: string, address: Hex, sign: (m: string) => Promise<Hex>, o: { chainId?: number; type?: string; appId?: string } = {}) {
  const init = await s.call('/api/v1/siwe/init', { body: { address }, token, appId: o.appId })
  expect(init.status).toBe(200)
  const message = createSiweMessage({ address, chainId: o.chainId ?? CHAIN, domain: 'localhost:5173', nonce: init.body.nonce, uri: ORIGIN, version: '1', issuedAt: new Date() })
  return s.call('/api/v1/siwe/link_smart_wallet', { token, appId: o.appId, body: { message, signature: await sign(message), smart_wallet_type: o.type ?? 'safe' } })
}

const paymasterFor = (token: string) =>
  createPaymasterClient({ transport: http(`${s.url}/api/v1/paymaster`, { fetchOptions: { headers: { authorization: `Bearer ${token}`, 'privy-app-id': DEMO } } }) })

/** A bundler client for the account; with a token, sponsored through the server's paymaster. */
function bundlerFor(account: SmartAccount, token: string | null, entryPoint: { address: Hex; version: '0.7' | '0.8' } = { address: entryPoint07Address, version: '0.7' }) {
  const pimlico = createPimlicoClient({ transport: http(aa.bundlerUrl), entryPoint })
  return createBundlerClient({
    account,
    client: pub,
    transport: http(aa.bundlerUrl),
    paymaster: token ? paymasterFor(token) : undefined,
    pollingInterval: 100,
    userOperation: { estimateFeesPerGas: async () => (await pimlico.getUserOperationGasPrice()).fast },
  })
}

const rpc = (token: string, method: string, params: unknown[]) => s.call('/api/v1/paymaster', { token, body: { jsonrpc: '2.0', id: 7, method, params } })

describe('smart-wallet config', () => {
  it('GET /apps/{appId}/smart_wallets: the configured networks, nothing server-only; a disabled app', async () => {
    const r = await s.call(`/api/v1/apps/${DEMO}/smart_wallets`, { appId: null })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({
      enabled: true,
      smart_wallet_type: 'safe',
      smart_wallet_version: '1.4.1',
      configured_networks: [{ chain_id: 'eip155:31337', bundler_url: aa.bundlerUrl, paymaster_url: 'http://127.0.0.1:8787/api/v1/paymaster', paymaster_context: { policy: 'portico-demo' } }],
    })
    expect(JSON.stringify(r.body)).not.toContain(aa.paymaster.signerKey.slice(2))
    const off = await s.call(`/api/v1/apps/${TERMS}/smart_wallets`, { appId: null })
    expect(off.status).toBe(200)
    expect(off.body).toEqual({ enabled: false })
  })

  it('refuses to start with an unsupported chain, with 31337 outside development mode, or a bad type', async () => {
    const start = (sw: unknown, o = {}) => startTestServer(store, { ...o, apps: [{ ...demo, smartWallets: sw } as typeof demo] })
    await expect(start(smartWallets({ chainId: 999 }))).rejects.toThrow(/smartWallets\.networks\.0\.chainId: chain 999 is not a supported smart-wallet chain \(supported: 1, 11155111, 137, 10, 8453, 84532, 42161, 7777777, 43114, 56; 31337 in development mode only\)/)
    await expect(start(smartWallets(), prodOptions())).rejects.toThrow(/chain 31337 is not a supported smart-wallet chain/)
    await expect(start({ ...smartWallets(), type: 'simple' })).rejects.toThrow(/smartWallets\.type: must be one of kernel, safe, light_account/)
    await expect(start({ ...smartWallets(), networks: [] })).rejects.toThrow(/smartWallets\.networks: an enabled smart-wallet config needs at least one network/)
    await expect(start({ ...smartWallets(), paymaster: { policy: {} } })).rejects.toThrow(/smartWallets\.paymaster: needs signerKey or signerKeyEnv/)
    await expect(start({ ...smartWallets(), paymaster: { signerKeyEnv: 'PORTICO_TEST_UNSET_PAYMASTER_KEY' } })).rejects.toThrow(/environment variable PORTICO_TEST_UNSET_PAYMASTER_KEY must hold 0x and 64 hex digits/)
    await expect(start({ ...smartWallets(), networks: [{ chainId: 8453, bundlerUrl: 'not a url' }] })).rejects.toThrow(/smartWallets\.networks\.0\.bundlerUrl: must be a URL/)
    // Outside development mode the paymaster key comes from the environment, never inline (it would be stored).
    await expect(start(smartWallets({ chainId: 8453 }), prodOptions())).rejects.toThrow(
      /smartWallets\.paymaster\.signerKey: a key written inline is for development mode only; give signerKeyEnv/,
    )
    // A supported chain with the key in the environment is fine in production.
    process.env.PORTICO_TEST_PAYMASTER_KEY = aa.paymaster.signerKey
    const sw = smartWallets({ chainId: 8453 })
    const prod = await start({ ...sw, paymaster: { ...sw.paymaster, signerKey: undefined, signerKeyEnv: 'PORTICO_TEST_PAYMASTER_KEY' } }, prodOptions())
    expect((await prod.call(`/api/v1/apps/${DEMO}/smart_wallets`, { appId: null })).body.configured_networks[0].chain_id).toBe('eip155:8453')
    await prod.close()
    delete process.env.PORTICO_TEST_PAYMASTER_KEY
  })
})

describe('smart wallets: link and sponsored user operations', () => {
  let tokenA: string
  let ownerA: PrivateKeyAccount
  let safeA: Awaited<ReturnType<typeof safeOf>>
  let firstNonce: bigint

  it('links a counterfactual Safe (ERC-6492); refuses forged, tampered, wrong-chain, wrong-type and EOA links', { timeout: 60_000 }, async () => {
    tokenA = await login()
    ownerA = privateKeyToAccount(generatePrivateKey())
    safeA = await safeOf(ownerA)
    expect(await pub.getCode({ address: safeA.address })).toBeUndefined()

    // Forged: a Safe of another owner claiming A's address; tampered: one byte of a good signature changed.
    const forger = await safeOf(privateKeyToAccount(generatePrivateKey()), { address: safeA.address })
    expect((await link(tokenA, safeA.address, (message) => forger.signMessage({ message }))).body).toMatchObject({ code: 'invalid_credentials', error: 'Invalid signature' })
    const tampered = await link(tokenA, safeA.address, async (message) => {
      const sig = await safeA.signMessage({ message })
      return `${sig.slice(0, -10)}${sig.slice(-10, -8) === 'ff' ? '00' : 'ff'}${sig.slice(-8)}` as Hex
    })
    expect(tampered.status).toBe(401)
    const wrongChain = await link(tokenA, safeA.address, (message) => safeA.signMessage({ message }), { chainId: 8453 })
    expect(wrongChain.body).toMatchObject({ code: 'invalid_credentials', error: "SIWE message chain 8453 is not one of this app's smart-wallet networks." })
    const wrongType = await link(tokenA, safeA.address, (message) => safeA.signMessage({ message }), { type: 'kernel' })
    expect(wrongType.status).toBe(400)
    expect(wrongType.body.error).toBe('Smart wallet type kernel is not enabled for this app (it uses safe).')
    const eoa = privateKeyToAccount(generatePrivateKey())
    expect((await link(tokenA, eoa.address, (message) => eoa.signMessage({ message }))).body.error).toBe('The address is not a smart account: no contract code and no ERC-6492 signature.')

    let signature: Hex = '0x'
    const ok = await link(tokenA, safeA.address, async (message) => (signature = await safeA.signMessage({ message })))
    expect(isErc6492Signature(signature)).toBe(true)
    expect(ok.status).toBe(200)
    const sw = ok.body.user.linked_accounts.filter((a: { type: string }) => a.type === 'smart_wallet')
    expect(sw).toEqual([expect.objectContaining({ type: 'smart_wallet', address: safeA.address, smart_wallet_type: 'safe', smart_wallet_version: '1.4.1' })])
    expect(typeof sw[0].latest_verified_at).toBe('number')
    expect(await pub.getCode({ address: safeA.address })).toBeUndefined() // simulated, not deployed
    const me = await s.call('/api/v1/users/me', { token: tokenA })
    expect(me.body.user.linked_accounts.some((a: { type: string; address: string }) => a.type === 'smart_wallet' && a.address === safeA.address)).toBe(true)
    // One smart wallet per user.
    const second = await safeOf(privateKeyToAccount(generatePrivateKey()))
    expect((await link(tokenA, second.address, (message) => second.signMessage({ message }))).body.code).toBe('cannot_link_more_of_type')
  })

  it("refuses someone else's account: another user cannot link it, even with its owner's signature", async () => {
    const tokenB = await login()
    const other = await link(tokenB, safeA.address, (message) => safeA.signMessage({ message }))
    expect(other.body.code).toBe('linked_to_another_user')
    const forged = await link(tokenB, safeA.address, async (message) => (await safeOf(privateKeyToAccount(generatePrivateKey()), { address: safeA.address })).signMessage({ message }))
    expect(forged.status).toBe(401)
  })

  it('links a deployed Safe (ERC-1271)', { timeout: 30_000 }, async () => {
    const token = await login()
    const safe = await safeOf(privateKeyToAccount(generatePrivateKey()))
    // Deployed by someone else (a funded dev account calls the Safe proxy factory).
    const { factory, factoryData } = await safe.getFactoryArgs()
    const deployer = (await import('viem')).createWalletClient({ chain: aa.chain, transport: http(aa.rpc), account: DEV_ACCOUNTS[3] })
    await pub.waitForTransactionReceipt({ hash: await deployer.sendTransaction({ to: factory!, data: factoryData! }) })
    expect(await pub.getCode({ address: safe.address })).toBeDefined()
    let signature: Hex = '0x'
    const r = await link(token, safe.address, async (message) => (signature = await safe.signMessage({ message })))
    expect(isErc6492Signature(signature)).toBe(false)
    expect(r.status).toBe(200)
    expect(r.body.user.linked_accounts.find((a: { type: string }) => a.type === 'smart_wallet').address).toBe(safe.address)
  })

  it('links where wallet login is off (the SIWE nonce is issued to a bearer of an app with smart wallets)', async () => {
    const token = await login(SW_ONLY)
    const safe = await safeOf(privateKeyToAccount(generatePrivateKey()))
    expect((await s.call('/api/v1/siwe/init', { body: { address: safe.address }, appId: SW_ONLY })).body.code).toBe('disallowed_login_method')
    const r = await link(token, safe.address, (message) => safe.signMessage({ message }), { appId: SW_ONLY })
    expect(r.status).toBe(200)
    expect(r.body.user.linked_accounts.map((a: { type: string }) => a.type).sort()).toEqual(['email', 'smart_wallet'])
  })

  it('sponsors user operations through the bundler: the first deploys the account, the deposit pays, the account holds no ETH; a batch', { timeout: 60_000 }, async () => {
    const bundler = bundlerFor(safeA, tokenA)
    const depositBefore = await aa.paymaster.deposit()
    const target = DEV_ACCOUNTS[3].address
    const hash = await bundler.sendUserOperation({ calls: [{ to: target, value: 0n, data: '0x5052' }] })
    const receipt = await bundler.waitForUserOperationReceipt({ hash, timeout: 30_000 })
    expect(receipt.success).toBe(true)
    firstNonce = receipt.nonce
    expect(receipt.paymaster?.toLowerCase()).toBe(aa.paymaster.address.toLowerCase())
    expect(await pub.getCode({ address: safeA.address })).toBeDefined()
    expect(await pub.getBalance({ address: safeA.address })).toBe(0n)
    const depositAfter = await aa.paymaster.deposit()
    expect(depositAfter).toBeLessThan(depositBefore)
    expect(depositBefore - depositAfter).toBe(receipt.actualGasCost)

    // Two calls in one operation (the Safe batches them through MultiSend).
    const batch = await bundler.sendUserOperation({ calls: [{ to: target, data: '0x01' }, { to: DEV_ACCOUNTS[2].address, data: '0x02' }] })
    const r2 = await bundler.waitForUserOperationReceipt({ hash: batch, timeout: 30_000 })
    expect(r2.success).toBe(true)
    expect(await aa.paymaster.deposit()).toBeLessThan(depositAfter)
    expect(await pub.getBalance({ address: safeA.address })).toBe(0n)
  })

  it('refuses out-of-policy sponsorships: chain, a sender not linked, a replayed nonce, the cost cap, the daily limit; unsponsored, the account pays', { timeout: 30_000 }, async () => {
    const bundler = bundlerFor(safeA, tokenA)
    // The operation as the account would send it (no gas yet: the paymaster's stub comes first).
    const op = { sender: safeA.address, nonce: await safeA.getNonce(), callData: await safeA.encodeCalls([{ to: DEV_ACCOUNTS[3].address, data: '0x03' }]), maxFeePerGas: 2_000_000_000n }
    const wire = { sender: op.sender, nonce: `0x${op.nonce.toString(16)}`, callData: op.callData, maxFeePerGas: `0x${op.maxFeePerGas.toString(16)}`, maxPriorityFeePerGas: '0x1' }
    const refused = (r: Awaited<ReturnType<typeof rpc>>, reason: string) => {
      expect(r.status).toBe(200)
      expect(r.body.id).toBe(7)
      expect(r.body.error?.data?.reason).toBe(reason)
      expect(r.body.result).toBeUndefined()
    }
    // A chain the policy does not sponsor.
    refused(await rpc(tokenA, 'pm_getPaymasterStubData', [wire, entryPoint07Address, '0x1', {}]), 'chain_not_sponsored')
    // Another user's sender.
    const tokenC = await login()
    refused(await rpc(tokenC, 'pm_getPaymasterData', [wire, entryPoint07Address, '0x7a69', {}]), 'sender_not_linked')
    // A nonce the EntryPoint already used (the first operation's).
    refused(await rpc(tokenA, 'pm_getPaymasterData', [{ ...wire, nonce: `0x${firstNonce.toString(16)}` }, entryPoint07Address, '0x7a69', {}]), 'nonce_used')
    // An operation that could cost the deposit more than the policy's 0.05 ETH.
    const costly = await rpc(tokenA, 'pm_getPaymasterData', [{ ...wire, callGasLimit: '0x1000000', maxFeePerGas: '0xe8d4a51000' }, entryPoint07Address, '0x7a69', {}])
    refused(costly, 'max_cost')
    expect(costly.body.error.message).toMatch(/^Sponsorship refused: the operation may cost up to \d+ wei, above the policy's 50000000000000000 wei\.$/)
    // The daily limit (2, both used above): the stub and the real data are refused, the bundler never sees the operation.
    const limit = await rpc(tokenA, 'pm_getPaymasterStubData', [wire, entryPoint07Address, '0x7a69', {}])
    refused(limit, 'daily_limit_reached')
    expect(limit.body.error.message).toBe('Sponsorship refused: the daily limit of 2 sponsored operations per user is reached.')
    await expect(bundler.sendUserOperation({ calls: [{ to: DEV_ACCOUNTS[3].address, data: '0x03' }] })).rejects.toThrow(/daily limit of 2/)
    // Unknown method, no token.
    expect((await rpc(tokenA, 'eth_sendUserOperation', [])).body.error.code).toBe(-32601)
    expect((await s.call('/api/v1/paymaster', { body: { jsonrpc: '2.0', id: 1, method: 'pm_getPaymasterStubData', params: [] } })).status).toBe(401)
    // Without a paymaster the account pays from its own balance once funded.
    await (await import('viem')).createWalletClient({ chain: aa.chain, transport: http(aa.rpc), account: DEV_ACCOUNTS[3] }).sendTransaction({ to: safeA.address, value: parseEther('1') })
    const own = bundlerFor(safeA, null)
    const h = await own.sendUserOperation({ calls: [{ to: DEV_ACCOUNTS[3].address, data: '0x04' }] })
    const r = await own.waitForUserOperationReceipt({ hash: h, timeout: 30_000 })
    expect(r.success).toBe(true)
    expect(r.paymaster).toBeUndefined()
    expect(await pub.getBalance({ address: safeA.address })).toBeLessThan(parseEther('1'))
  })

  it("the stack's SimpleAccountFactory: a SimpleAccount deploys with its first (self-paid) operation", { timeout: 30_000 }, async () => {
    const simple = await toSimpleSmartAccount({ client: pub, owner: privateKeyToAccount(generatePrivateKey()), factoryAddress: aa.factories.simple, entryPoint: { address: entryPoint07Address, version: '0.7' } })
    const funder = (await import('viem')).createWalletClient({ chain: aa.chain, transport: http(aa.rpc), account: DEV_ACCOUNTS[3] })
    await pub.waitForTransactionReceipt({ hash: await funder.sendTransaction({ to: simple.address, value: parseEther('0.1') }) })
    const bundler = bundlerFor(simple, null)
    const r = await bundler.waitForUserOperationReceipt({ hash: await bundler.sendUserOperation({ calls: [{ to: DEV_ACCOUNTS[3].address, data: '0x05' }] }), timeout: 30_000 })
    expect(r.success).toBe(true)
    expect(await pub.getCode({ address: simple.address })).toBeDefined()
  })
})

describe('EIP-7702: an EOA upgraded in place sends sponsored operations (EntryPoint v0.8)', () => {
  it('the first sponsored operation carries the authorisation: same address, the designator on chain, no ETH; then the policy', { timeout: 60_000 }, async () => {
    const token = await login()
    const owner = privateKeyToAccount(generatePrivateKey())
    // The user's own EOA (an embedded wallet's stand-in), linked by SIWE.
    const init = await s.call('/api/v1/siwe/init', { body: { address: owner.address }, token })
    // (SIWE login's chains are the app's wallet-login chains; an address is the same on each.)
    const message = createSiweMessage({ address: owner.address, chainId: 1, domain: 'localhost:5173', nonce: init.body.nonce, uri: ORIGIN, version: '1', issuedAt: new Date() })
    const linked = await s.call('/api/v1/siwe/link', { token, body: { message, signature: await owner.signMessage({ message }), chainId: 'eip155:1', walletClientType: 'metamask', connectorType: 'injected' } })
    expect(linked.body.error ?? linked.status).toBe(200)

    const account = await to7702SimpleSmartAccount({ client: pub, owner, entryPoint: { address: entryPoint08Address, version: '0.8' } })
    expect(account.address).toBe(owner.address)
    const bundler = bundlerFor(account, token, { address: entryPoint08Address, version: '0.8' })
    const depositBefore = await aa.v08.deposit()
    const authorization = await owner.signAuthorization({ chainId: CHAIN, contractAddress: aa.v08.simple7702, nonce: await pub.getTransactionCount({ address: owner.address }) })
    const hash = await bundler.sendUserOperation({ calls: [{ to: DEV_ACCOUNTS[3].address, data: '0x7702' }], authorization })
    const receipt = await bundler.waitForUserOperationReceipt({ hash, timeout: 30_000 })
    expect(receipt.success).toBe(true)
    expect(receipt.sender).toBe(owner.address)
    expect(receipt.paymaster?.toLowerCase()).toBe(aa.v08.paymaster.toLowerCase())
    expect((await pub.getCode({ address: owner.address }))?.toLowerCase()).toBe(concat(['0xef0100', aa.v08.simple7702]).toLowerCase())
    expect(await pub.getBalance({ address: owner.address })).toBe(0n)
    expect(depositBefore - (await aa.v08.deposit())).toBe(receipt.actualGasCost)

    // Delegated already: the next operation needs no authorisation.
    const again = await bundler.waitForUserOperationReceipt({ hash: await bundler.sendUserOperation({ calls: [{ to: DEV_ACCOUNTS[3].address, data: '0x02' }] }), timeout: 30_000 })
    expect(again.success).toBe(true)
    expect(await pub.getBalance({ address: owner.address })).toBe(0n)

    // The policy holds for v0.8: another user's EOA, a used nonce, EntryPoint v0.6 refused.
    const wire = { sender: owner.address, nonce: `0x${(await account.getNonce()).toString(16)}`, callData: await account.encodeCalls([{ to: DEV_ACCOUNTS[3].address, data: '0x03' }]), maxFeePerGas: '0x77359400', maxPriorityFeePerGas: '0x1' }
    const reason = async (t: string, op: object, ep: string = entryPoint08Address) => (await rpc(t, 'pm_getPaymasterData', [op, ep, '0x7a69', {}])).body.error?.data?.reason
    expect(await reason(await login(), wire)).toBe('sender_not_linked')
    expect(await reason(token, { ...wire, nonce: `0x${receipt.nonce.toString(16)}` })).toBe('nonce_used')
    expect(await reason(token, wire, '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789')).toBe('unsupported_entry_point')
    // A v0.7 request for this EOA is refused too: it is not a linked smart wallet.
    expect(await reason(token, wire, entryPoint07Address)).toBe('sender_not_linked')

    // The delegation target: a linked EOA with no delegation and no authorisation, or one that
    // authorises another contract, is not sponsored; authorising Simple7702Account is.
    const token2 = await login()
    const plain = privateKeyToAccount(generatePrivateKey())
    const init2 = await s.call('/api/v1/siwe/init', { body: { address: plain.address }, token: token2 })
    const message2 = createSiweMessage({ address: plain.address, chainId: 1, domain: 'localhost:5173', nonce: init2.body.nonce, uri: ORIGIN, version: '1', issuedAt: new Date() })
    const linked2 = await s.call('/api/v1/siwe/link', { token: token2, body: { message: message2, signature: await plain.signMessage({ message: message2 }), chainId: 'eip155:1', walletClientType: 'metamask', connectorType: 'injected' } })
    expect(linked2.body.error ?? linked2.status).toBe(200)
    const plainWire = { ...wire, sender: plain.address, nonce: '0x0' }
    const authTo = (address: string) => ({ address, chainId: '0x7a69', nonce: '0x0', r: `0x${'11'.repeat(32)}`, s: `0x${'22'.repeat(32)}`, yParity: '0x0' })
    expect(await reason(token2, plainWire)).toBe('delegation_not_allowed')
    const other = await rpc(token2, 'pm_getPaymasterStubData', [{ ...plainWire, eip7702Auth: authTo(aa.factories.simple) }, entryPoint08Address, '0x7a69', {}])
    expect(other.body.error).toMatchObject({ data: { reason: 'delegation_not_allowed' } })
    expect(other.body.error.message).toBe(`Sponsorship refused: the account delegates to ${aa.factories.simple}, which this paymaster does not sponsor (EIP-7702: Simple7702Account only).`)
    const good = await rpc(token2, 'pm_getPaymasterStubData', [{ ...plainWire, eip7702Auth: authTo(aa.v08.simple7702) }, entryPoint08Address, '0x7a69', {}])
    expect(good.body.error).toBeUndefined()
    expect(good.body.result).toBeTruthy()
  })

  /** An EIP-1193 provider over a local key (the embedded wallet's stand-in: the frame signs the same requests). */
  const providerOf = (a: PrivateKeyAccount) => ({
    on() {},
    removeListener() {},
    async request({ method, params = [] }: { method: string; params?: unknown[] }) {
      if (method === 'eth_accounts' || method === 'eth_requestAccounts') return [a.address]
      if (method === 'eth_chainId') return `0x${CHAIN.toString(16)}`
      if (method === 'personal_sign') return a.signMessage({ message: { raw: params[0] as Hex } })
      if (method === 'eth_signTypedData_v4') {
        const t = JSON.parse(params[1] as string)
        const { EIP712Domain: _d, ...types } = t.types
        return a.signTypedData({ ...t, types })
      }
      throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 })
    },
  })

  it('upgradeTo7702 (plugins/embedded-wallet): authorises once, sponsored through the server; a refused authorisation sends nothing', { timeout: 60_000 }, async () => {
    const token = await login()
    const owner = privateKeyToAccount(generatePrivateKey())
    const init = await s.call('/api/v1/siwe/init', { body: { address: owner.address }, token })
    const message = createSiweMessage({ address: owner.address, chainId: 1, domain: 'localhost:5173', nonce: init.body.nonce, uri: ORIGIN, version: '1', issuedAt: new Date() })
    expect((await s.call('/api/v1/siwe/link', { token, body: { message, signature: await owner.signMessage({ message }), chainId: 'eip155:1' } })).status).toBe(200)
    const asked: AuthorizationRequest[] = []
    const common = {
      provider: providerOf(owner) as never,
      chain: aa.chain,
      rpcUrl: aa.rpc,
      bundlerUrl: aa.bundlerUrl,
      paymasterUrl: `${s.url}/api/v1/paymaster`,
      paymasterHeaders: { authorization: `Bearer ${token}`, 'privy-app-id': DEMO },
      signAuthorization: async (r: AuthorizationRequest) => {
        asked.push(r)
        return owner.signAuthorization(r)
      },
    }
    const first = await upgradeTo7702({ ...common, calls: [{ to: DEV_ACCOUNTS[3].address, data: '0x01' }] })
    expect(first).toMatchObject({ address: owner.address, upgraded: true, success: true })
    expect(asked).toEqual([{ chainId: CHAIN, contractAddress: aa.v08.simple7702, nonce: 0 }])
    expect((await pub.getCode({ address: owner.address }))?.toLowerCase()).toBe(delegationDesignator(aa.v08.simple7702))
    expect(await pub.getBalance({ address: owner.address })).toBe(0n)
    const second = await upgradeTo7702({ ...common, calls: [{ to: DEV_ACCOUNTS[3].address, data: '0x02' }] })
    expect(second).toMatchObject({ address: owner.address, upgraded: false, success: true })
    expect(asked).toHaveLength(1)

    // The user refuses the authorisation (EIP-1193 4001): it rejects with that, nothing is sent.
    const other = privateKeyToAccount(generatePrivateKey())
    const refusal = Object.assign(new Error('User rejected the request.'), { code: 4001 })
    await expect(upgradeTo7702({ ...common, provider: providerOf(other) as never, signAuthorization: async () => Promise.reject(refusal), calls: [{ to: DEV_ACCOUNTS[3].address }] })).rejects.toMatchObject({ code: 4001 })
    expect(await pub.getCode({ address: other.address })).toBeUndefined()
  })
})
