/**
 * portico/plugins/walletconnect: the connector against the relay stand-in, with a REAL wallet on the other
 * side: a second `@walletconnect/sign-client` (Node, `ws`) that pairs with the URI the plugin
 * publishes, approves the session and signs with a viem private-key account. The server is
 * the kit's fetch double; the signatures it receives are verified with viem.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { verifyMessage, hexToString, type Hex } from 'viem'
import { parseSiweMessage } from 'viem/siwe'
import { createTestKernel, wireUser, authResponse } from 'portico/testing'
import {
  loadWalletKit,
  connectedWallets,
  walletConnectors,
  type WalletLoginConnector,
} from 'portico/kits/wallet'
import { walletconnect, type WalletConnectConnector, type WalletConnectOptions, type WalletConnectStorage } from 'portico/plugins/walletconnect'
import { startRelay, type Relay } from '../../examples/stand-ins/walletconnect-relay/relay'
import { memoryStore, startWallet as startWalletOn, type TestWallet } from '../e2e/wallets/walletconnect'
const { createWalletConnection, walletErrorText } = await loadWalletKit()

const startWallet = (name?: string) => startWalletOn(relay.url, name)

function memoryStorage() {
  const m = new Map<string, string>()
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k) }
}

let relay: Relay
const unhandled: unknown[] = []
const onUnhandled = (e: unknown) => unhandled.push(e)
beforeAll(async () => {
  // One sign-client core per client in this process (the wallet and each test's dapp).
  process.env.DISABLE_GLOBAL_CORE = 'true'
  relay = await startRelay()
  process.on('unhandledRejection', onUnhandled)
  vi.stubGlobal('location', { host: 'app.portico.test', origin: 'https://app.portico.test' })
})
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled)
  vi.unstubAllGlobals()
  await relay?.close()
})

const walletAccount = (address: string, clientType = 'wallet_connect') => ({
  type: 'wallet',
  address,
  chain_type: 'ethereum',
  chain_id: 'eip155:1',
  wallet_client_type: clientType,
  connector_type: 'wallet_connect_v2',
  verified_at: 1,
  first_verified_at: 1,
  latest_verified_at: 1,
})

async function setup(options: WalletConnectOptions = {}, extra: { storage?: ReturnType<typeof memoryStorage>; wcStorage?: WalletConnectStorage; user?: any } = {}) {
  const wcStorage: WalletConnectStorage = extra.wcStorage ?? memoryStore()
  const t = await createTestKernel({
    plugins: [walletconnect({ projectId: 'portico-test-project', relayUrl: relay.url, storage: wcStorage, ...options })],
    app: { login_methods: ['wallet'] },
    config: { externalWallets: { walletConnect: { enabled: true } }, ...(extra.storage ? { storage: extra.storage } : {}) },
    user: extra.user,
  })
  t.net.on('POST', '/siwe/init', { nonce: 'abcdef1234567890' })
  t.net.on('POST', '/siwe/authenticate', async (call) => {
    const body = call.body as any
    const ok = await verifyMessage({ address: parseSiweMessage(body.message).address!, message: body.message, signature: body.signature })
    if (!ok) return { status: 401, body: { code: 'invalid_credentials', error: 'bad signature' } }
    return authResponse(wireUser({ accounts: [walletAccount(parseSiweMessage(body.message).address!, body.walletClientType) as any] }), { is_new_user: true })
  })
  const api = t.kernel.plugin('walletconnect')
  const connector = walletConnectors(t.kernel).find((c) => c.id === 'walletconnect') as WalletLoginConnector
  /** Hand each new pairing URI to `wallet`. */
  const pairWith = (wallet: TestWallet) =>
    api.state.subscribe((s) => {
      if (s.status === 'pairing' && s.uri) void wallet.pair(s.uri)
    })
  return { ...t, api, connector, wcStorage, pairWith }
}

const kernels: { destroy(): void }[] = []
afterEach(() => {
  for (const k of kernels.splice(0)) k.destroy()
})

describe('walletconnect: login through the relay with a real wallet client', () => {
  it('pairs by URI, the wallet approves and signs; POST /siwe/authenticate carries wallet_connect_v2; logged in', async () => {
    const wallet = await startWallet()
    const t = await setup()
    kernels.push(t.kernel)
    const stop = t.pairWith(wallet)
    const conn = createWalletConnection(t.connector, 'login', (res, meta) => t.kernel.completeLogin(res, meta))
    const statuses: string[] = []
    conn.subscribe((s) => statuses.push(`${s.status}/${s.connection}`))
    await conn.start()
    stop()
    expect(conn.getState()).toMatchObject({ status: 'done', connection: 'connected', address: wallet.address, error: null })
    expect([...new Set(statuses)]).toEqual(['connecting/connecting', 'signing/connected', 'done/connected'])
    const [auth] = t.net.callsTo('POST', '/siwe/authenticate')
    expect(auth.body).toMatchObject({ chainId: 'eip155:1', connectorType: 'wallet_connect_v2', walletClientType: 'wallet_connect', mode: 'login-or-sign-up' })
    const msg = parseSiweMessage((auth.body as any).message)
    expect(msg).toMatchObject({ address: wallet.address, domain: 'app.portico.test', uri: 'https://app.portico.test', nonce: 'abcdef1234567890', chainId: 1 })
    expect(wallet.requests.map((r) => r.method)).toEqual(['personal_sign'])
    expect(t.kernel.session.user?.wallet).toMatchObject({ address: wallet.address, connectorType: 'wallet_connect_v2' })
    expect(t.kernel.recentLogin()).toEqual({ method: 'siwe', walletClientType: 'wallet_connect', chainType: 'ethereum' })
    expect(t.api.state.get()).toMatchObject({ status: 'connected', uri: null, address: wallet.address, walletName: 'Portico Test Wallet' })
    // The wallet-object surface (external-wallets reads it): flags, account, provider.
    const wc = t.connector as WalletConnectConnector
    expect(wc.status()).toEqual({ connected: true, initialized: true, address: wallet.address })
    expect(await (await wc.getEthereumProvider()).request({ method: 'eth_chainId' })).toBe('0x1')
    await t.api.disconnect()
    expect(wc.status()).toEqual({ connected: false, initialized: true, address: null })
    await expect.poll(() => wallet.deleted.length).toBe(1)
    expect(t.api.state.get().status).toBe('idle')
    await wallet.close()
  })

  it('closing the QR counts as the user rejecting: "You rejected the request", and Try connecting again pairs anew', async () => {
    const t = await setup()
    kernels.push(t.kernel)
    const conn = createWalletConnection(t.connector, 'login', (res, meta) => t.kernel.completeLogin(res, meta))
    const done = conn.start()
    await expect.poll(() => t.api.state.get().status).toBe('pairing')
    const firstUri = t.api.state.get().uri
    expect(firstUri).toMatch(/^wc:[0-9a-f]{64}@2\?/)
    t.api.closeQr()
    await done
    const s = conn.getState()
    expect(s).toMatchObject({ status: 'error', phase: 'connect', connection: 'disconnected', canRetry: true })
    expect(walletErrorText(s.error!, s.phase, s.retriesUsed)).toEqual({ title: 'You rejected the request', hint: 'Unable to connect to wallet' })
    expect(t.api.state.get()).toMatchObject({ status: 'idle', uri: null })

    const wallet = await startWallet()
    const stop = t.pairWith(wallet)
    expect(await conn.retry()).toBe(true)
    stop()
    expect(conn.getState()).toMatchObject({ status: 'done', retriesUsed: 1 })
    expect(t.net.callsTo('POST', '/siwe/authenticate')).toHaveLength(1)
    await wallet.close()
  })

  it('a signature the wallet refuses (5000 USER_REJECTED) shows "Signature rejected", Retry signs', async () => {
    const wallet = await startWallet()
    wallet.rejectNext(5000)
    const t = await setup()
    kernels.push(t.kernel)
    const stop = t.pairWith(wallet)
    const conn = createWalletConnection(t.connector, 'login', (res, meta) => t.kernel.completeLogin(res, meta))
    await conn.start()
    const s = conn.getState()
    expect(s).toMatchObject({ status: 'error', phase: 'sign', canRetry: true })
    expect(walletErrorText(s.error!, s.phase)).toEqual({ title: 'You rejected the request', hint: 'Signature rejected: Please try signing again.' })
    expect(await conn.retry()).toBe(true)
    stop()
    expect(conn.getState().status).toBe('done')
    expect(wallet.requests).toHaveLength(2)
    await wallet.close()
  })

  it('MetaMask via WalletConnect: the signature is asked 2500 ms after the approval, not before', async () => {
    const wallet = await startWallet('MetaMask Wallet')
    const t = await setup()
    kernels.push(t.kernel)
    const stop = t.pairWith(wallet)
    const conn = createWalletConnection(t.connector, 'login', (res, meta) => t.kernel.completeLogin(res, meta))
    await conn.start()
    stop()
    expect(conn.getState().status).toBe('done')
    const [sign] = wallet.requests
    expect(sign.at - wallet.approvedAt).toBeGreaterThanOrEqual(2400)
    expect((t.net.callsTo('POST', '/siwe/authenticate')[0].body as any).walletClientType).toBe('metamask')
    await wallet.close()
  })

  it('logging out of Portico ends the WalletConnect session: the wallet sees the session delete, the page forgets it', async () => {
    const wallet = await startWallet()
    const storage = memoryStorage()
    const wcStorage = memoryStore()
    const t = await setup({}, { storage, wcStorage })
    kernels.push(t.kernel)
    const stop = t.pairWith(wallet)
    const conn = createWalletConnection(t.connector, 'login', (res, meta) => t.kernel.completeLogin(res, meta))
    await conn.start()
    stop()
    expect(t.api.state.get().status).toBe('connected')
    const topic = wallet.client.session.getAll()[0].topic
    await t.kernel.session.logout()
    // Told before logout() resolves: the wallet's delete arrives through the relay.
    await expect.poll(() => wallet.deleted).toEqual([topic])
    expect(t.kernel.session.authenticated).toBe(false)
    expect(t.api.state.get()).toMatchObject({ status: 'idle', address: null })
    expect((t.connector as WalletConnectConnector).status()).toEqual({ connected: false, initialized: true, address: null })

    // After a "reload" whose kept session was not restored yet, logout restores it to end it.
    const wallet2 = await startWallet()
    const t2 = await setup({}, { storage, wcStorage })
    const stop2 = t2.pairWith(wallet2)
    const conn2 = createWalletConnection(t2.connector, 'login', (res, meta) => t2.kernel.completeLogin(res, meta))
    await conn2.start()
    stop2()
    t2.kernel.destroy()
    const t3 = await setup({}, { storage, wcStorage, user: wireUser({ accounts: [walletAccount(wallet2.address) as any] }) })
    kernels.push(t3.kernel)
    expect(t3.kernel.session.authenticated).toBe(true)
    expect(t3.api.state.get().address).toBe(wallet2.address)
    await t3.kernel.session.logout()
    await expect.poll(() => wallet2.deleted.length).toBe(1)
    expect(t3.api.state.get()).toMatchObject({ status: 'idle', address: null })
    expect(await t3.api.restore()).toBeNull()
    await wallet.close()
    await wallet2.close()
  })

  it('restores the session after a reload (same storages): the provider signs; the wallet ending it forgets it', async () => {
    const wallet = await startWallet()
    const storage = memoryStorage()
    const wcStorage = memoryStore()
    const first = await setup({}, { storage, wcStorage })
    const stop = first.pairWith(wallet)
    const conn = createWalletConnection(first.connector, 'login', (res, meta) => first.kernel.completeLogin(res, meta))
    await conn.start()
    stop()
    expect(conn.getState().status).toBe('done')
    first.kernel.destroy()

    // The "reload": a new kernel over the same storages. The kept session comes back.
    const second = await setup({}, { storage, wcStorage })
    kernels.push(second.kernel)
    expect(second.api.state.get().address).toBe(wallet.address)
    const restored = await second.api.restore()
    expect(restored).toMatchObject({ address: wallet.address, chainId: 1, walletClientType: 'wallet_connect' })
    const provider = await second.api.getEthereumProvider()
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([wallet.address])
    const signature = (await provider.request({ method: 'personal_sign', params: ['0x68656c6c6f', wallet.address] })) as Hex
    expect(await verifyMessage({ address: wallet.address as Hex, message: hexToString('0x68656c6c6f'), signature })).toBe(true)
    // Not approved for the session: 4200.
    await expect(provider.request({ method: 'eth_sign', params: [wallet.address, '0x00'] })).rejects.toMatchObject({ code: 4200 })

    await wallet.client.disconnect({ topic: restored!.topic, reason: { code: 6000, message: 'bye' } })
    await expect.poll(() => second.api.state.get().status).toBe('idle')
    expect(second.api.state.get().address).toBeNull()
    await expect(provider.request({ method: 'personal_sign', params: ['0x00', wallet.address] })).rejects.toMatchObject({ code: 4900 })
    await wallet.close()
  })

  it('a connect-only session (logged out) comes back by itself after a reload: initialising, then listed connected', async () => {
    const wallet = await startWallet()
    const storage = memoryStorage()
    const wcStorage = memoryStore()
    const first = await setup({}, { storage, wcStorage })
    const stop = first.pairWith(wallet)
    await createWalletConnection(first.connector, 'login', vi.fn(), { connectOnly: true }).start()
    stop()
    expect(first.kernel.session.authenticated).toBe(false)
    expect(wallet.requests).toEqual([])
    first.kernel.destroy()

    const second = await setup({}, { storage, wcStorage })
    kernels.push(second.kernel)
    expect(second.kernel.session.authenticated).toBe(false)
    // No call from here on: the kept session is restored at start-up, without a QR or a prompt.
    await vi.waitFor(() => expect((second.connector as WalletConnectConnector).status()).toEqual({ connected: true, initialized: true, address: wallet.address }), { timeout: 15_000 })
    expect(connectedWallets(second.kernel).map((w) => [w.address, w.connectorType])).toEqual([[wallet.address, 'wallet_connect_v2']])
    expect(second.api.state.get()).toMatchObject({ status: 'connected', uri: null })
    expect(wallet.requests).toEqual([])
    await wallet.close()
  })

  it('links a WalletConnect wallet to a logged-in user (POST /siwe/link, no mode)', async () => {
    const wallet = await startWallet()
    const user = wireUser({ accounts: [{ type: 'email', address: 'a@example.com', verified_at: 1, first_verified_at: 1, latest_verified_at: 1 }] })
    const t = await setup({}, { user })
    kernels.push(t.kernel)
    expect(t.kernel.session.authenticated).toBe(true)
    t.net.on('POST', '/siwe/link', (call) =>
      authResponse({ ...user, linked_accounts: [...user.linked_accounts, walletAccount(wallet.address) as any] }, { session_update_action: 'ignore', token: null, refresh_token: null }),
    )
    const stop = t.pairWith(wallet)
    const conn = createWalletConnection(t.connector, 'link', (res, meta) => t.kernel.completeLogin(res, meta))
    await conn.start()
    stop()
    expect(conn.getState().status).toBe('done')
    const [link] = t.net.callsTo('POST', '/siwe/link')
    expect((link.body as any).mode).toBeUndefined()
    expect(link.body).toMatchObject({ connectorType: 'wallet_connect_v2', chainId: 'eip155:1' })
    expect(t.kernel.session.user?.wallet?.address).toBe(wallet.address)
    await wallet.close()
  })

  it('an unreachable relay fails the connection (retryable) within the relay time-out, without unhandled rejections', async () => {
    const t = await setup({ relayUrl: 'ws://127.0.0.1:9', relayTimeoutMs: 1500 })
    kernels.push(t.kernel)
    const conn = createWalletConnection(t.connector, 'login', (res, meta) => t.kernel.completeLogin(res, meta))
    await conn.start()
    expect(conn.getState()).toMatchObject({ status: 'error', phase: 'connect', canRetry: true })
    expect(walletErrorText(conn.getState().error!, 'connect').title).toBe('Could not log in with wallet')
    expect(unhandled).toEqual([])
  })
})
