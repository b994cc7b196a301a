// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { isHex, verifyMessage, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { parseSiweMessage } from 'viem/siwe'
import { PorticoError } from 'portico'
import { createTestKernel, wireUser, authResponse, pluginContract } from 'portico/testing'
import {
  loadWalletKit,
  connectedWallets,
  needsSignButton,
  unlinkWallet,
  walletClientTypeOf,
  walletConnectors,
  WALLET_CONNECT_CODES,
  type WalletLoginConnector,
} from 'portico/kits/wallet'
import { buildSiweMessage as buildSiweMessageAsync, createEip6963Discovery, siwe, unlinkEthereumWallet, SIWE_TEXTS, type Eip1193Provider } from './index'
import { buildSiweMessage } from './message'
const { canRetry, createWalletConnection, toWalletError, walletErrorText, withWalletTimeout, WALLET_TEXTS: S } = await loadWalletKit()

const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' as const
const account = privateKeyToAccount(KEY)

/** An EIP-1193 provider backed by a viem private-key account. */
function testProvider(opts: { chainId?: number; reject?: () => boolean; canSwitch?: boolean } = {}): Eip1193Provider & { calls: string[] } {
  const calls: string[] = []
  let chainId = opts.chainId ?? 1
  return {
    calls,
    isMetaMask: true,
    async request({ method, params }) {
      calls.push(method)
      const p = (params ?? []) as unknown[]
      switch (method) {
        case 'eth_requestAccounts':
        case 'eth_accounts':
          if (method === 'eth_requestAccounts' && opts.reject?.()) throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
          return [account.address]
        case 'eth_chainId':
          return `0x${chainId.toString(16)}`
        case 'wallet_switchEthereumChain':
          if (!opts.canSwitch) throw Object.assign(new Error('Unrecognized chain'), { code: 4902 })
          chainId = parseInt((p[0] as { chainId: string }).chainId, 16)
          return null
        case 'personal_sign': {
          if (opts.reject?.()) throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
          const data = p[0] as Hex
          return account.signMessage({ message: isHex(data) ? { raw: data } : String(data) })
        }
        default:
          throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 })
      }
    },
  }
}

function announce(provider: Eip1193Provider, info: Partial<{ uuid: string; name: string; icon: string; rdns: string }> = {}) {
  const detail = Object.freeze({
    info: { uuid: 'uuid-mm', name: 'MetaMask', icon: 'data:image/svg+xml,<svg/>', rdns: 'io.metamask', ...info },
    provider,
  })
  window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
}

/** A fresh event target so discovery tests do not see each other's wallets. */
function isolatedTarget(): Window {
  const t = new EventTarget() as unknown as Window
  return t
}

beforeEach(() => {
  ;(window as any).happyDOM?.setURL?.('http://localhost:5173/app')
})

pluginContract(() => siwe({ target: isolatedTarget() }), { loginMethods: ['wallet'] })

describe('siwe: the EIP-4361 message', () => {
  it('is built with the page host and origin, version 1, chain id, nonce, issued-at and the statement', async () => {
    const issuedAt = new Date('2026-01-02T03:04:05.000Z')
    const text = buildSiweMessage({ address: account.address.toLowerCase(), chainId: 10, nonce: 'abcdef12345678', issuedAt })
    expect(text.split('\n')[0]).toBe('localhost:5173 wants you to sign in with your Ethereum account:')
    const m = parseSiweMessage(text)
    expect(m).toMatchObject({
      address: account.address, // checksummed
      domain: 'localhost:5173',
      uri: 'http://localhost:5173',
      version: '1',
      chainId: 10,
      nonce: 'abcdef12345678',
      statement: SIWE_TEXTS.statement,
    })
    expect(m.issuedAt?.toISOString()).toBe('2026-01-02T03:04:05.000Z')
    expect(await buildSiweMessageAsync({ address: account.address, chainId: 10, nonce: 'abcdef12345678', issuedAt })).toBe(text)
    expect(SIWE_TEXTS.statement).toBe(
      'By signing, you are proving you own this wallet and logging in. This does not initiate a transaction or cost any fees.',
    )
  })
})

describe('siwe: wallet error mapping', () => {
  const rejection = Object.assign(new Error('User rejected the request.'), { code: 4001 })

  it('maps 4001 to a retryable rejection, also when wrapped by viem', () => {
    const wrapped = Object.assign(new Error('viem wrapper'), { cause: rejection })
    for (const e of [rejection, wrapped]) {
      const err = toWalletError(e, 'sign')
      expect(err.code).toBe(WALLET_CONNECT_CODES.rejected)
      expect(err.retryable).toBe(true)
      expect(walletErrorText(err, 'sign')).toEqual({ title: 'You rejected the request', hint: 'Signature rejected: Please try signing again.' })
    }
  })

  it('maps server conflicts to their texts, without retry', () => {
    const linked = toWalletError(new PorticoError('linked_to_another_user', 'x', { kind: 'api_error', status: 409 }), 'sign')
    expect(linked.retryable).toBe(false)
    expect(walletErrorText(linked, 'sign').hint).toBe('User already exists for this address')
    const more = toWalletError(new PorticoError('cannot_link_more_of_type', 'x', { kind: 'api_error', status: 400 }), 'sign')
    expect(walletErrorText(more, 'sign').hint).toBe("Unable to link: You've reached the maximum number of linked wallets.")
    expect(canRetry(more, 0)).toBe(false)
  })

  it('maps a time-out and anything else', () => {
    const timeout = new PorticoError(WALLET_CONNECT_CODES.timeout, S.timedOut, { kind: 'wallet_error', retryable: true })
    expect(walletErrorText(toWalletError(timeout, 'connect'), 'connect').title).toBe('Wallet request timed out')
    const other = toWalletError(new Error('boom'), 'connect')
    expect(walletErrorText(other, 'connect')).toEqual({ title: 'Could not log in with wallet', hint: 'Unknown error during connection' })
    expect(other.retryable).toBe(true)
    // A provider's 'unsupported method' will not get better by trying again.
    expect(toWalletError(Object.assign(new Error('nope'), { code: 4200 }), 'sign').retryable).toBe(false)
  })

  it('allows retry while retryable and fewer than 2 retries were used; then the hint changes', () => {
    const err = toWalletError(rejection, 'sign')
    expect([0, 1, 2].map((n) => canRetry(err, n))).toEqual([true, true, false])
    expect(walletErrorText(err, 'sign', 2).hint).toBe('Unable to connect wallet')
  })

  it('gives the generic error screen a view only for its own codes', async () => {
    const { kernel } = await createTestKernel({ plugins: [siwe({ target: isolatedTarget() })], app: { login_methods: ['wallet'] } })
    // The wallet base declares its error views lazily (screens wait for them; headless code loads them).
    await kernel.loadDeclarations()
    expect(kernel.screens.resolveError(toWalletError(rejection, 'connect')).title).toBe('You rejected the request')
    expect(kernel.hooks.errorView.call(new PorticoError('invalid_credentials', 'x'), {})).toBeUndefined()
    kernel.destroy()
  })
})

describe('siwe: EIP-6963 discovery', () => {
  afterEach(() => {
    delete (window as any).ethereum
    vi.useRealTimers()
  })

  it('collects announcements, answers to its own request, dedupes, and maps rdns to the wallet client type', () => {
    const mm = testProvider()
    const rainbow = testProvider()
    // A wallet that announces when asked.
    const onRequest = () => announce(rainbow, { uuid: 'uuid-rb', name: 'Rainbow', rdns: 'me.rainbow' })
    window.addEventListener('eip6963:requestProvider', onRequest)
    const d = createEip6963Discovery(window)
    window.removeEventListener('eip6963:requestProvider', onRequest)
    announce(mm)
    announce(mm) // again: no duplicate
    announce({ request: 'not a function' } as any, { uuid: 'bad' }) // ignored
    expect(d.providers().map((p) => p.info.name)).toEqual(['Rainbow', 'MetaMask'])
    expect(d.settled).toBe(true)
    expect(d.providers().map((p) => walletClientTypeOf(p.info))).toEqual(['rainbow', 'metamask'])
    expect(walletClientTypeOf({ name: 'Coinbase Wallet', rdns: 'x.y' })).toBe('coinbase_wallet')
    expect(walletClientTypeOf({ name: 'My Fancy Wallet!', rdns: '' })).toBe('my_fancy_wallet')
    d.destroy()
  })

  it('falls back to window.ethereum when it was not announced, and settles after 3000 ms without wallets', () => {
    vi.useFakeTimers()
    const empty = createEip6963Discovery(window)
    expect(empty.settled).toBe(false)
    vi.advanceTimersByTime(2999)
    expect(empty.settled).toBe(false)
    vi.advanceTimersByTime(1)
    expect(empty.settled).toBe(true)
    expect(empty.providers()).toEqual([])
    empty.destroy()

    const injected = testProvider()
    ;(window as any).ethereum = injected
    const d = createEip6963Discovery(window)
    expect(d.providers()).toMatchObject([{ source: 'window.ethereum', info: { name: 'MetaMask' } }])
    announce(injected) // the same provider announced: listed once, as the announcement
    expect(d.providers()).toMatchObject([{ source: 'eip6963', info: { rdns: 'io.metamask' } }])
    d.destroy()
  })
})

describe('siwe: login and link against the test server', () => {
  afterEach(() => delete (window as any).ethereum)

  async function setup(opts: { reject?: () => boolean; user?: ReturnType<typeof wireUser>; canSwitch?: boolean } = {}) {
    const target = isolatedTarget()
    const t = await createTestKernel({
      plugins: [siwe({ target })],
      app: { login_methods: ['wallet'] },
      user: opts.user,
    })
    const provider = testProvider({ chainId: 8453, reject: opts.reject, canSwitch: opts.canSwitch })
    const events: string[] = []
    t.kernel.events.on('wallet-connectors:changed', () => events.push('changed'))
    target.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', {
        detail: { info: { uuid: 'u1', name: 'MetaMask', icon: 'data:,', rdns: 'io.metamask' }, provider },
      }),
    )
    expect(events.length).toBeGreaterThan(0)
    const nonces: string[] = []
    t.net.on('POST', '/siwe/init', (call) => {
      expect(call.body).toEqual({ address: account.address })
      const nonce = `nonce${nonces.length}xyz123`
      nonces.push(nonce)
      return { nonce }
    })
    const verify = async (body: any) => {
      const m = parseSiweMessage(body.message)
      expect(m.nonce).toBe(nonces[nonces.length - 1])
      expect(m.domain).toBe('localhost:5173')
      expect(m.chainId).toBe(opts.canSwitch ? 1 : 8453)
      expect(await verifyMessage({ address: account.address, message: body.message, signature: body.signature })).toBe(true)
    }
    const walletAccount = {
      type: 'wallet',
      address: account.address,
      chain_type: 'ethereum',
      chain_id: 'eip155:8453',
      wallet_client_type: 'metamask',
      connector_type: 'injected',
      verified_at: 1,
      first_verified_at: 1,
      latest_verified_at: 1,
    }
    t.net.on('POST', '/siwe/authenticate', async (call) => {
      await verify(call.body)
      return authResponse(wireUser({ accounts: [walletAccount as any] }), { is_new_user: true })
    })
    t.net.on('POST', '/siwe/link', async (call) => {
      await verify(call.body)
      const u = opts.user!
      return authResponse({ ...u, linked_accounts: [...u.linked_accounts, walletAccount as any] }, { session_update_action: 'ignore', token: null, refresh_token: null })
    })
    const [connector] = walletConnectors(t.kernel)
    return { ...t, provider, connector: connector as WalletLoginConnector }
  }

  it('publishes the announced wallet as a connector', async () => {
    const { connector } = await setup()
    expect(connector).toMatchObject({ name: 'MetaMask', chainType: 'ethereum', connectorType: 'injected', walletClientType: 'metamask' })
  })

  it('logs in: eth_requestAccounts, /siwe/init, personal_sign, /siwe/authenticate, completeLogin', async () => {
    const { kernel, net, connector, provider } = await setup()
    const conn = createWalletConnection(connector, 'login', (res, meta) => kernel.completeLogin(res, meta))
    const statuses: string[] = []
    conn.subscribe((s) => statuses.push(s.status))
    await conn.start()
    expect(conn.getState()).toMatchObject({ status: 'done', connection: 'connected', address: account.address, error: null })
    expect(statuses.filter((s, i) => s !== statuses[i - 1])).toEqual(['connecting', 'signing', 'done'])
    expect(provider.calls).toEqual(expect.arrayContaining(['eth_requestAccounts', 'eth_chainId', 'personal_sign']))
    const [auth] = net.callsTo('POST', '/siwe/authenticate')
    expect(Object.keys(auth.body).sort()).toEqual(['chainId', 'connectorType', 'message', 'mode', 'signature', 'walletClientType'])
    expect(auth.body).toMatchObject({ chainId: 'eip155:8453', walletClientType: 'metamask', connectorType: 'injected', mode: 'login-or-sign-up' })
    expect(kernel.session.user?.wallet?.address).toBe(account.address)
    expect(kernel.recentLogin()).toEqual({ method: 'siwe', walletClientType: 'metamask', chainType: 'ethereum' })
  })

  it('asks a wallet on an unsupported chain to switch to the default chain first', async () => {
    const { kernel, net, connector, provider } = await setup({ canSwitch: true })
    const conn = createWalletConnection(connector, 'login', (res, meta) => kernel.completeLogin(res, meta))
    const states: string[] = []
    conn.subscribe((s) => states.push(s.connection))
    await conn.start()
    expect(conn.getState().status).toBe('done')
    expect(states).toContain('switching_to_supported_chain')
    expect(provider.calls).toContain('wallet_switchEthereumChain')
    expect(net.callsTo('POST', '/siwe/authenticate')[0].body.chainId).toBe('eip155:1')
  })

  it('signs in on its own chain when the wallet cannot switch', async () => {
    const { kernel, net, connector, provider } = await setup()
    const conn = createWalletConnection(connector, 'login', (res, meta) => kernel.completeLogin(res, meta))
    await conn.start()
    expect(conn.getState()).toMatchObject({ status: 'done', connection: 'connected' })
    expect(provider.calls).toContain('wallet_switchEthereumChain')
    expect(net.callsTo('POST', '/siwe/authenticate')[0].body.chainId).toBe('eip155:8453')
  })

  it('a rejected signature shows the rejection, and Retry signs again with a fresh nonce', async () => {
    let rejectNext = true
    const { kernel, net, connector } = await setup({
      reject: () => {
        const r = rejectNext
        return r
      },
    })
    // Let the account request pass, reject the first signature.
    const origConnect = connector.connect
    connector.connect = async (signal) => {
      rejectNext = false
      const a = await origConnect(signal)
      rejectNext = true
      return a
    }
    const conn = createWalletConnection(connector, 'login', (res, meta) => kernel.completeLogin(res, meta))
    await conn.start()
    const s = conn.getState()
    expect(s.status).toBe('error')
    expect(s.phase).toBe('sign')
    expect(s.canRetry).toBe(true)
    expect(walletErrorText(s.error!, s.phase, s.retriesUsed)).toEqual({
      title: 'You rejected the request',
      hint: 'Signature rejected: Please try signing again.',
    })
    expect(net.callsTo('POST', '/siwe/authenticate')).toHaveLength(0)
    rejectNext = false
    expect(await conn.retry()).toBe(true)
    expect(conn.getState()).toMatchObject({ status: 'done', retriesUsed: 1 })
    expect(net.callsTo('POST', '/siwe/init')).toHaveLength(2)
    expect(kernel.session.authenticated).toBe(true)
  })

  it('stops offering Retry after 2 retries', async () => {
    const { kernel, connector } = await setup({ reject: () => true })
    const conn = createWalletConnection(connector, 'login', (res, meta) => kernel.completeLogin(res, meta))
    await conn.start()
    expect(conn.getState()).toMatchObject({ status: 'error', phase: 'connect', canRetry: true })
    expect(walletErrorText(conn.getState().error!, 'connect').title).toBe('You rejected the request')
    expect(await conn.retry()).toBe(true)
    expect(await conn.retry()).toBe(true)
    expect(conn.getState()).toMatchObject({ status: 'error', retriesUsed: 2, canRetry: false })
    expect(await conn.retry()).toBe(false)
    const s = conn.getState()
    expect(walletErrorText(s.error!, s.phase, s.retriesUsed).hint).toBe('Unable to connect wallet')
  })

  it('waits for the Sign with your wallet press when confirmSign is on (mobile)', async () => {
    const { kernel, net, connector } = await setup()
    const conn = createWalletConnection(connector, 'login', (res, meta) => kernel.completeLogin(res, meta), { confirmSign: true })
    await conn.start()
    expect(conn.getState()).toMatchObject({ status: 'ready', connection: 'connected', address: account.address })
    expect(net.callsTo('POST', '/siwe/init')).toHaveLength(0)
    expect(await conn.sign()).toBe(true)
    expect(conn.getState().status).toBe('done')
    expect(await conn.sign()).toBe(false)
    expect(needsSignButton('mobile', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148')).toBe(true)
    expect(needsSignButton('mobile', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0')).toBe(false)
    expect(needsSignButton('button', '')).toBe(true)
    expect(needsSignButton('auto', 'Android Mobile')).toBe(false)
  })

  it('links with intent link (POST /siwe/link without mode) and unlinks', async () => {
    const user = wireUser({ accounts: [{ type: 'email', address: 'a@example.com', verified_at: 1, first_verified_at: 1, latest_verified_at: 1 }] })
    const { kernel, net, connector } = await setup({ user })
    expect(kernel.session.authenticated).toBe(true)
    const conn = createWalletConnection(connector, 'link', (res, meta) => kernel.completeLogin(res, meta))
    await conn.start()
    expect(conn.getState().status).toBe('done')
    const [link] = net.callsTo('POST', '/siwe/link')
    expect(link.body.mode).toBeUndefined()
    expect(link.body).toMatchObject({ chainId: 'eip155:8453', connectorType: 'injected', walletClientType: 'metamask' })
    expect(kernel.session.user?.wallet?.address).toBe(account.address)

    net.on('POST', '/siwe/unlink', (call) => {
      expect(call.body).toEqual({ address: account.address })
      return authResponse(user, { session_update_action: 'ignore', token: null, refresh_token: null })
    })
    const after = await unlinkEthereumWallet(kernel, account.address)
    expect(after.wallet).toBeUndefined()
    expect(kernel.session.user?.wallet).toBeUndefined()
  })

  it('unlinkWallet picks the route by the wallet\'s chain type', async () => {
    const now = 1
    const base = { verified_at: now, first_verified_at: now, latest_verified_at: now }
    const user = wireUser({
      accounts: [
        { type: 'wallet', address: '0xAbC0000000000000000000000000000000000001', chain_type: 'ethereum', connector_type: 'injected', ...base } as any,
        { type: 'wallet', address: 'So1ana1111111111111111111111111111111111111', chain_type: 'solana', connector_type: 'solana_adapter', ...base } as any,
      ],
    })
    const t = await createTestKernel({ plugins: [siwe({ target: isolatedTarget() })], app: { login_methods: ['wallet'] }, user })
    const reply = authResponse(user, { session_update_action: 'ignore', token: null, refresh_token: null })
    t.net.on('POST', '/siwe/unlink', reply).on('POST', '/siws/unlink', reply)
    await unlinkWallet(t.kernel, 'So1ana1111111111111111111111111111111111111')
    await unlinkWallet(t.kernel, '0xabc0000000000000000000000000000000000001')
    expect(t.net.callsTo('POST', '/siws/unlink').map((c) => c.body)).toEqual([{ address: 'So1ana1111111111111111111111111111111111111' }])
    expect(t.net.callsTo('POST', '/siwe/unlink').map((c) => c.body)).toEqual([{ address: '0xAbC0000000000000000000000000000000000001' }])
    await expect(unlinkWallet(t.kernel, '0xdead')).rejects.toThrow('No linked wallet has the address 0xdead.')
    t.kernel.destroy()
  })

  it('hides Ethereum wallets when the app is solana-only', async () => {
    const t = await createTestKernel({
      plugins: [siwe({ target: window })],
      app: { login_methods: ['wallet'], wallet_chain_type: 'solana-only' },
    })
    ;(window as any).ethereum = testProvider()
    expect(walletConnectors(t.kernel)).toEqual([])
    t.kernel.destroy()
  })
})

describe('siwe: wallet request time-out', () => {
  afterEach(() => vi.useRealTimers())

  it('gives up on a wallet that does not answer within 120000 ms, with a retryable time-out', async () => {
    vi.useFakeTimers()
    const silent: WalletLoginConnector = {
      id: 'silent',
      name: 'Silent',
      chainType: 'ethereum',
      connectorType: 'injected',
      walletClientType: 'silent',
      login: true,
      connect: (signal) => withWalletTimeout(new Promise<string>(() => {}), undefined, signal),
      signIn: async () => {
        throw new Error('not reached')
      },
    }
    const conn = createWalletConnection(silent, 'login', async () => null)
    const done = conn.start()
    await vi.advanceTimersByTimeAsync(119_999)
    expect(conn.getState().status).toBe('connecting')
    await vi.advanceTimersByTimeAsync(1)
    await done
    const s = conn.getState()
    expect(s).toMatchObject({ status: 'error', canRetry: true })
    expect(walletErrorText(s.error!, s.phase).title).toBe('Wallet request timed out')
  })
})

describe('siwe: silent reconnect after a reload (an authorised wallet, no prompt)', () => {
  function memoryStorage() {
    const m = new Map<string, string>()
    return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k) }
  }
  /** A wallet whose `eth_accounts` answers `authorised()` (what it has allowed this site). */
  function wallet(authorised: () => string[]) {
    const p = testProvider()
    const inner = p.request
    p.request = async (args) => (args.method === 'eth_accounts' ? (p.calls.push('eth_accounts'), authorised()) : inner(args))
    return p
  }
  async function page(storage: ReturnType<typeof memoryStorage>, provider: Eip1193Provider) {
    const target = isolatedTarget()
    const t = await createTestKernel({ plugins: [siwe({ target })], app: { login_methods: ['wallet'] }, config: { storage } })
    target.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: { info: { uuid: 'u1', name: 'MetaMask', icon: 'data:,', rdns: 'io.metamask' }, provider } }))
    const [connector] = walletConnectors(t.kernel)
    return { ...t, connector: connector as WalletLoginConnector }
  }

  it('a wallet connected before is connected again from eth_accounts; one that no longer reports an account, or was disconnected, is not', async () => {
    const storage = memoryStorage()
    const first = await page(storage, wallet(() => [account.address]))
    expect(first.connector.status?.()).toEqual({ connected: false, initialized: true, address: null })
    const conn = createWalletConnection(first.connector, 'login', vi.fn(), { connectOnly: true })
    await conn.start()
    expect(first.connector.status?.()).toMatchObject({ connected: true, address: account.address })
    first.kernel.destroy()

    // The reload: initialising until eth_accounts answered, then connected, without eth_requestAccounts.
    const provider = wallet(() => [account.address])
    const second = await page(storage, provider)
    expect(second.connector.status?.()).toMatchObject({ connected: false, initialized: false })
    await vi.waitFor(() => expect(second.connector.status?.()).toEqual({ connected: true, initialized: true, address: account.address }))
    expect(connectedWallets(second.kernel).map((w) => [w.address, w.connectorType])).toEqual([[account.address, 'injected']])
    expect(provider.calls).toEqual(['eth_accounts'])
    second.kernel.destroy()

    // The wallet revoked the site: nothing to reconnect, and it is forgotten.
    const revoked = wallet(() => [])
    const third = await page(storage, revoked)
    await vi.waitFor(() => expect(third.connector.status?.()).toEqual({ connected: false, initialized: true, address: null }))
    third.kernel.destroy()
    const fourth = await page(storage, wallet(() => [account.address]))
    expect(fourth.connector.status?.()).toEqual({ connected: false, initialized: true, address: null })

    // Connected again, then disconnected by the host: not reconnected after the next reload.
    await createWalletConnection(fourth.connector, 'login', vi.fn(), { connectOnly: true }).start()
    await fourth.connector.disconnect?.()
    fourth.kernel.destroy()
    const untouched = wallet(() => [account.address])
    const fifth = await page(storage, untouched)
    expect(fifth.connector.status?.()).toEqual({ connected: false, initialized: true, address: null })
    expect(untouched.calls).toEqual([])
    fifth.kernel.destroy()
  })
})
