// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { createTestKernel, wireUser, authResponse, pluginContract } from 'portico/testing'
import { siwe } from 'portico/plugins/siwe'
import {
  loadWalletKit,
  walletConnectors,
} from 'portico/kits/wallet'
import {
  buildSiwsMessage,
  createWalletStandardRegistry,
  siws,
  unlinkSolanaWallet,
  type StandardWallet,
  type StandardWalletAccount,
} from './index'
const { createWalletConnection, walletErrorText } = await loadWalletKit()

const secretKey = ed25519.utils.randomSecretKey()
const publicKey = ed25519.getPublicKey(secretKey)
const address = base58.encode(publicKey)

/** A wallet-standard wallet backed by an ed25519 key pair. */
function testWallet(opts: { name?: string; reject?: () => boolean } = {}): StandardWallet & { signed: string[] } {
  const account: StandardWalletAccount = {
    address,
    publicKey,
    chains: ['solana:mainnet'],
    features: ['solana:signMessage'],
  }
  const signed: string[] = []
  let accounts: StandardWalletAccount[] = []
  const rejection = () => Object.assign(new Error('User rejected the request.'), { code: 4001 })
  return {
    signed,
    version: '1.0.0',
    name: opts.name ?? 'Phantom',
    icon: 'data:image/svg+xml,<svg/>',
    chains: ['solana:mainnet', 'solana:devnet'],
    get accounts() {
      return accounts
    },
    features: {
      'standard:connect': {
        version: '1.0.0',
        async connect() {
          accounts = [account]
          return { accounts }
        },
      },
      'solana:signMessage': {
        version: '1.0.0',
        async signMessage(...inputs: { account: StandardWalletAccount; message: Uint8Array }[]) {
          if (opts.reject?.()) throw rejection()
          return inputs.map(({ message }) => {
            signed.push(new TextDecoder().decode(message))
            return { signedMessage: message, signature: ed25519.sign(message, secretKey) }
          })
        },
      },
    },
  }
}

/** Register a wallet as a wallet would: through the register-wallet event. */
function registerWallet(target: EventTarget, wallet: StandardWallet) {
  const callback = ({ register }: { register: (...w: StandardWallet[]) => () => void }) => register(wallet)
  target.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: callback }))
}

const isolated = () => new EventTarget() as unknown as Window

/** The fields of a SIWS message the test server checks. */
function parseSiwsMessage(text: string) {
  const lines = text.split('\n')
  const domain = /^(\S+) wants you to sign in with your Solana account:$/.exec(lines[0])?.[1]
  const field = (k: string) => lines.find((l) => l.startsWith(`${k}: `))?.slice(k.length + 2)
  return { domain, address: lines[1], nonce: field('Nonce'), uri: field('URI') }
}

beforeEach(() => {
  ;(window as any).happyDOM?.setURL?.('http://localhost:5173/app')
})

pluginContract(() => siws({ target: isolated() }), { loginMethods: ['wallet'] })

describe('siws: wallet-standard registry', () => {
  it('takes wallets that register after the app and wallets that were waiting for app-ready', () => {
    const target = isolated()
    const early = testWallet({ name: 'Early' })
    // A wallet that loaded first listens for app-ready.
    target.addEventListener('wallet-standard:app-ready', (e) => (e as CustomEvent).detail.register(early))
    const registry = createWalletStandardRegistry(target)
    let changes = 0
    registry.subscribe(() => changes++)
    const late = testWallet({ name: 'Late' })
    registerWallet(target, late)
    registerWallet(target, late) // twice: once in the list
    expect(registry.get().map((w) => w.name)).toEqual(['Early', 'Late'])
    expect(changes).toBe(1)
    registry.destroy()
    registerWallet(target, testWallet({ name: 'After destroy' }))
    expect(registry.get().map((w) => w.name)).toEqual(['Early', 'Late'])
  })
})

describe('siws: the message', () => {
  it('has the layout the reference server parses (examples/server/src/siws-message.ts), line for line', () => {
    // The server's acceptance of this layout is proven end to end in test/e2e/siws.spec.ts.
    const issuedAt = new Date('2026-03-04T05:06:07.000Z')
    const text = buildSiwsMessage({ address, nonce: 'n0nce123', chainId: 'mainnet', issuedAt })
    expect(text).toBe(
      [
        'localhost:5173 wants you to sign in with your Solana account:',
        address,
        '',
        'By signing, you are proving you own this wallet and logging in. This does not initiate a transaction or cost any fees.',
        '',
        'URI: http://localhost:5173',
        'Version: 1',
        'Chain ID: mainnet',
        'Nonce: n0nce123',
        'Issued At: 2026-03-04T05:06:07.000Z',
      ].join('\n'),
    )
  })
})

describe('siws: login, link, unlink', () => {
  async function setup(opts: { user?: ReturnType<typeof wireUser>; reject?: () => boolean; chainType?: 'solana-only' | 'ethereum-and-solana' } = {}) {
    const target = isolated()
    const t = await createTestKernel({
      plugins: [siws({ target })],
      app: { login_methods: ['wallet'], wallet_chain_type: opts.chainType ?? 'solana-only' },
      user: opts.user,
    })
    const wallet = testWallet({ reject: opts.reject })
    registerWallet(target, wallet)
    const nonces: string[] = []
    t.net.on('POST', '/siws/init', (call) => {
      expect(call.body).toEqual({ address })
      nonces.push(`nonce${nonces.length}abc`)
      return { nonce: nonces[nonces.length - 1] }
    })
    const verify = (body: any) => {
      const m = parseSiwsMessage(body.message)
      expect(m.nonce).toBe(nonces[nonces.length - 1])
      expect(m.domain).toBe('localhost:5173')
      const sig = Uint8Array.from(atob(body.signature), (c) => c.charCodeAt(0))
      expect(ed25519.verify(sig, new TextEncoder().encode(body.message), base58.decode(m.address))).toBe(true)
    }
    const walletAccount = {
      type: 'wallet',
      address,
      chain_type: 'solana',
      wallet_client_type: 'phantom',
      connector_type: 'solana_adapter',
      verified_at: 1,
      first_verified_at: 1,
      latest_verified_at: 1,
    }
    t.net.on('POST', '/siws/authenticate', (call) => {
      verify(call.body)
      return authResponse(wireUser({ accounts: [walletAccount as any] }), { is_new_user: true })
    })
    t.net.on('POST', '/siws/link', (call) => {
      verify(call.body)
      const u = opts.user!
      return authResponse({ ...u, linked_accounts: [...u.linked_accounts, walletAccount as any] }, { session_update_action: 'ignore', token: null, refresh_token: null })
    })
    return { ...t, wallet, target }
  }

  it('lists the wallet as a Solana-adapter connector', async () => {
    const { kernel } = await setup()
    expect(walletConnectors(kernel)).toMatchObject([
      { name: 'Phantom', chainType: 'solana', connectorType: 'solana_adapter', walletClientType: 'phantom' },
    ])
  })

  it('logs in: standard:connect, /siws/init, solana:signMessage, /siws/authenticate', async () => {
    const { kernel, net, wallet } = await setup()
    const [connector] = walletConnectors(kernel)
    const conn = createWalletConnection(connector, 'login', (res, meta) => kernel.completeLogin(res, meta))
    await conn.start()
    expect(conn.getState()).toMatchObject({ status: 'done', address })
    expect(wallet.signed).toHaveLength(1)
    const [auth] = net.callsTo('POST', '/siws/authenticate')
    expect(Object.keys(auth.body).sort()).toEqual(['connectorType', 'message', 'mode', 'signature', 'walletClientType'])
    expect(auth.body).toMatchObject({ connectorType: 'solana_adapter', walletClientType: 'phantom', mode: 'login-or-sign-up' })
    expect(kernel.session.user?.wallet).toMatchObject({ address, chainType: 'solana' })
    expect(kernel.recentLogin()).toEqual({ method: 'siws', walletClientType: 'phantom', chainType: 'solana' })
  })

  it('a rejected signature is retryable and says so', async () => {
    let reject = true
    const { kernel } = await setup({ reject: () => reject })
    const [connector] = walletConnectors(kernel)
    const conn = createWalletConnection(connector, 'login', (res, meta) => kernel.completeLogin(res, meta))
    await conn.start()
    const s = conn.getState()
    expect(s).toMatchObject({ status: 'error', phase: 'sign', canRetry: true })
    expect(walletErrorText(s.error!, s.phase).hint).toBe('Signature rejected: Please try signing again.')
    reject = false
    await conn.retry()
    expect(conn.getState().status).toBe('done')
  })

  it('links without mode and unlinks', async () => {
    const user = wireUser({ accounts: [{ type: 'email', address: 'b@example.com', verified_at: 1, first_verified_at: 1, latest_verified_at: 1 }] })
    const { kernel, net } = await setup({ user })
    const [connector] = walletConnectors(kernel)
    const conn = createWalletConnection(connector, 'link', (res, meta) => kernel.completeLogin(res, meta))
    await conn.start()
    expect(conn.getState().status).toBe('done')
    const [link] = net.callsTo('POST', '/siws/link')
    expect(link.body.mode).toBeUndefined()
    expect(link.body.chainId).toBeUndefined()
    expect(kernel.session.user?.wallet?.address).toBe(address)
    net.on('POST', '/siws/unlink', (call) => {
      expect(call.body).toEqual({ address })
      return authResponse(user, { session_update_action: 'ignore', token: null, refresh_token: null })
    })
    expect((await unlinkSolanaWallet(kernel, address)).wallet).toBeUndefined()
    expect(kernel.plugin('siws').connectors()).toHaveLength(1)
  })

  it('hides Solana wallets when the app is ethereum-only', async () => {
    const { kernel } = await setup({ chainType: 'ethereum-and-solana' })
    expect(walletConnectors(kernel)).toHaveLength(1)
    const t = await createTestKernel({ plugins: [siws({ target: isolated() })], app: { login_methods: ['wallet'], wallet_chain_type: 'ethereum-only' } })
    expect(walletConnectors(t.kernel)).toEqual([])
  })
})

describe('siwe + siws together', () => {
  it('share one landing entry and one wallet list, in either order', async () => {
    for (const plugins of [[siwe({ target: isolated() }), siws({ target: isolated() })], [siws({ target: isolated() }), siwe({ target: isolated() })]]) {
      const { kernel } = await createTestKernel({ plugins, app: { login_methods: ['wallet'], wallet_chain_type: 'ethereum-and-solana' } })
      const entries = kernel.hooks.loginMethods.call([], { config: kernel.config, recent: null })
      expect(entries.filter((e) => e.id === 'wallet')).toHaveLength(1)
      expect([...(entries.find((e) => e.id === 'wallet')?.covers ?? [])].sort()).toEqual(['siwe', 'siws'])
      expect(kernel.screens.has('wallet-list')).toBe(true)
      expect(kernel.screens.has('wallet-connect')).toBe(true)
      kernel.destroy()
    }
  })
})

describe('solana:signIn', () => {
  it('a wallet with solana:signIn builds and signs the SIWS message itself; the server gets its signed message', async () => {
    const inputs: unknown[] = []
    const base = testWallet({ name: 'Solflare' })
    const features = { ...base.features } as Record<string, unknown>
    delete features['solana:signMessage']
    const wallet: StandardWallet = {
      ...base,
      accounts: base.accounts,
      features: {
        ...features,
        'solana:signIn': {
          version: '1.0.0',
          async signIn(input: Record<string, string>) {
            inputs.push(input)
            const message = buildSiwsMessage({ address: input.address, nonce: input.nonce, domain: input.domain, uri: input.uri, statement: input.statement, chainId: input.chainId, issuedAt: new Date(input.issuedAt) })
            const bytes = new TextEncoder().encode(message)
            return [{ account: { address, publicKey, chains: ['solana:mainnet'], features: [] }, signedMessage: bytes, signature: ed25519.sign(bytes, secretKey) }]
          },
        },
      },
    }
    const target = isolated()
    const { kernel, net } = await createTestKernel({ plugins: [siws({ target })], app: { login_methods: ['wallet'] }, config: { appearance: { walletChainType: 'solana-only' } } })
    registerWallet(target as unknown as EventTarget, wallet)
    const [c] = walletConnectors(kernel)
    expect(c.name).toBe('Solflare')
    net.on('POST', '/siws/init', { nonce: 'n0nce5678' }).on('POST', '/siws/authenticate', authResponse(wireUser()))
    await c.signIn(await c.connect(), 'login')
    expect(inputs[0]).toMatchObject({ address, nonce: 'n0nce5678', version: '1', chainId: 'mainnet', domain: location.host, uri: location.origin })
    const body = net.callsTo('POST', '/siws/authenticate')[0].body as { message: string; signature: string; connectorType: string }
    expect(body.message).toContain(`wants you to sign in with your Solana account:\n${address}`)
    expect(body.message).toContain('Nonce: n0nce5678')
    expect(body.connectorType).toBe('solana_adapter')
    expect(ed25519.verify(Buffer.from(body.signature, 'base64'), new TextEncoder().encode(body.message), publicKey)).toBe(true)
  })
})

describe('the embedded wallet', () => {
  it('is never listed as an external Solana wallet', async () => {
    const target = isolated()
    const { kernel } = await createTestKernel({ plugins: [siws({ target })], app: { login_methods: ['wallet'] }, config: { appearance: { walletChainType: 'solana-only' } } })
    registerWallet(target as unknown as EventTarget, testWallet({ name: 'Portico Embedded Wallet' }))
    registerWallet(target as unknown as EventTarget, testWallet({ name: 'Solflare' }))
    expect(walletConnectors(kernel).map((c) => c.name)).toEqual(['Solflare'])
  })
})

describe('transactions (funding from a Solana wallet)', () => {
  const tx = new Uint8Array([1, 2, 3])
  async function connectorWith(features: Record<string, unknown>) {
    const base = testWallet()
    const wallet: StandardWallet = { ...base, accounts: base.accounts, features: { ...base.features, ...features } }
    const target = isolated()
    const { kernel } = await createTestKernel({ plugins: [siws({ target })], app: { login_methods: ['wallet'] }, config: { appearance: { walletChainType: 'solana-only' } } })
    registerWallet(target as unknown as EventTarget, wallet)
    const [c] = walletConnectors(kernel)
    return c
  }

  it('solana:signAndSendTransaction: the wallet signs and sends to the chain; resolves with its signature', async () => {
    const inputs: { account: StandardWalletAccount; transaction: Uint8Array; chain: string }[] = []
    const c = await connectorWith({
      'solana:signAndSendTransaction': {
        version: '1.0.0',
        async signAndSendTransaction(...i: typeof inputs) {
          inputs.push(...i)
          return [{ signature: new Uint8Array(64).fill(9) }]
        },
      },
    })
    await c.connect()
    const send = vi.fn()
    expect(await c.solanaSignAndSendTransaction!(tx, 'solana:devnet', send)).toEqual(new Uint8Array(64).fill(9))
    expect(inputs).toMatchObject([{ account: { address }, transaction: tx, chain: 'solana:devnet' }])
    expect(send).not.toHaveBeenCalled()
  })

  it('solana:signTransaction only: the wallet signs, the caller sends the signed bytes', async () => {
    const c = await connectorWith({
      'solana:signTransaction': { version: '1.0.0', signTransaction: async () => [{ signedTransaction: new Uint8Array([4, 5]) }] },
    })
    await c.connect()
    const send = vi.fn(async (signed: Uint8Array) => new Uint8Array(64).fill(signed[0]))
    expect(await c.solanaSignAndSendTransaction!(tx, 'solana:mainnet', send)).toEqual(new Uint8Array(64).fill(4))
    expect(send).toHaveBeenCalledWith(new Uint8Array([4, 5]))
  })

  it('a wallet with neither feature is unsupported; a rejection passes through', async () => {
    const c = await connectorWith({})
    await c.connect()
    await expect(c.solanaSignAndSendTransaction!(tx, 'solana:mainnet', vi.fn())).rejects.toMatchObject({ code: 'wallet_unsupported' })
    const r = await connectorWith({
      'solana:signAndSendTransaction': {
        version: '1.0.0',
        signAndSendTransaction: () => Promise.reject(Object.assign(new Error('User rejected the request.'), { code: 4001 })),
      },
    })
    await r.connect()
    await expect(r.solanaSignAndSendTransaction!(tx, 'solana:mainnet', vi.fn())).rejects.toMatchObject({ code: 4001 })
  })
})
