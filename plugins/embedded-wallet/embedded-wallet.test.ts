// @vitest-environment happy-dom
/**
 * The host plugin against a fake frame (a test double of the iframe's window that answers
 * the frame protocol with a real viem account): creation rules, the reply checks (origin and
 * source), the signer with the sensitiveAction hook, silent privy recovery, the EIP-1193
 * provider's local methods and errors, the HTTPS rule.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts'
import { verifyMessage, type Hex } from 'viem'
import { foundry, mainnet } from 'viem/chains'
import type { WireLinkedAccount } from 'portico'
import { createTestKernel, pluginContract, wireUser, emailAccount } from 'portico/testing'
import { FRAME_PROTOCOL, embeddedWallet, type EmbeddedWalletOptions, type FrameRequestMessage } from './index'
import { EMBEDDED_WALLET_TEXTS } from './strings'

const FRAME_URL = 'http://127.0.0.1:8788'
const T = EMBEDDED_WALLET_TEXTS

pluginContract(() => embeddedWallet({ frameUrl: FRAME_URL, frameTarget: fakeFrame().target }))

const eth = privateKeyToAccount(generatePrivateKey())
const SOL = 'HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH'

function walletAccount(address: string, chainType: 'ethereum' | 'solana', walletIndex = 0, entropyId = eth.address): WireLinkedAccount {
  return {
    type: 'wallet',
    address,
    chain_type: chainType,
    wallet_client_type: 'privy',
    connector_type: 'embedded',
    imported: false,
    delegated: false,
    recovery_method: 'privy',
    wallet_index: walletIndex,
    entropy_id: entropyId,
    entropy_id_verifier: 'ethereum-address-verifier',
    verified_at: 1,
    first_verified_at: 1,
    latest_verified_at: 1,
  } as unknown as WireLinkedAccount
}

type Handler = (m: FrameRequestMessage) => { data?: unknown; error?: { type: string; message: string } } | undefined | Promise<unknown>

/** A fake frame window: records requests and answers them as the real frame would. */
function fakeFrame(handlers: Record<string, Handler> = {}, reply: { origin?: string; fromSelf?: boolean } = {}) {
  const seen: FrameRequestMessage[] = []
  const target = {
    postMessage(message: unknown, targetOrigin: string) {
      const m = message as FrameRequestMessage
      expect(targetOrigin).toBe(FRAME_URL)
      seen.push(m)
      void Promise.resolve(m.type === 'ready' ? (handlers.ready?.(m) ?? { data: { version: 1 } }) : handlers[m.type]?.(m)).then((r) => {
        if (!r) return
        const out = { protocol: FRAME_PROTOCOL, id: m.id, ...(r as object) }
        window.dispatchEvent(new MessageEvent('message', { data: out, origin: reply.origin ?? FRAME_URL, source: (reply.fromSelf === false ? window : target) as never }))
      })
    },
  }
  return { target, seen, of: (type: string) => seen.filter((m) => m.type === type) }
}

async function setup(opts: { frame?: ReturnType<typeof fakeFrame>; accounts?: WireLinkedAccount[]; options?: Partial<EmbeddedWalletOptions> } = {}) {
  const frame = opts.frame ?? fakeFrame()
  const user = wireUser({ accounts: [emailAccount('ana@example.com'), ...(opts.accounts ?? [])] })
  const t = await createTestKernel({ user, plugins: [embeddedWallet({ frameUrl: FRAME_URL, frameTarget: frame.target, chains: [foundry, mainnet], ...opts.options })] })
  const sensitive: string[] = []
  t.kernel.hooks.sensitiveAction.tapPromise('test-mfa', async (c) => void sensitive.push(c.action))
  return { ...t, frame, user, api: t.kernel.plugin('embedded-wallet'), sensitive }
}

afterEach(() => {
  document.body.innerHTML = ''
})

describe('create', () => {
  it('creates through the frame, refreshes the user and returns the wallet', async () => {
    const frame = fakeFrame({
      'wallets:create': (m) => ({ data: { entropyId: eth.address, entropyIdVerifier: 'ethereum-address-verifier', wallets: [{ address: eth.address, chainType: 'ethereum', walletIndex: 0 }], recoveryMethod: 'privy' } }),
    })
    const t = await setup({ frame })
    t.net.on('GET', '/users/me', { user: wireUser({ accounts: [emailAccount('ana@example.com'), walletAccount(eth.address, 'ethereum')] }) })
    const w = await t.api.create()
    expect(w).toMatchObject({ address: eth.address, chainType: 'ethereum', walletIndex: 0, walletClientType: 'privy', recoveryMethod: 'privy', entropyId: eth.address })
    const req = frame.of('wallets:create')[0]
    expect(req.payload).toMatchObject({ chainTypes: ['ethereum'] })
    expect(typeof (req.payload as { accessToken: string }).accessToken).toBe('string')
    expect(t.api.wallets()).toEqual([w])
    // Stable objects between reads.
    expect(t.api.wallets()[0]).toBe(w)
  })

  it('follows the wallet rules: one per user, no negative index, next index = last + 1', async () => {
    const frame = fakeFrame({
      'wallets:add': (m) => ({ data: { wallet: { address: '0x' + '1'.repeat(40), chainType: 'ethereum', walletIndex: (m.payload as { walletIndex: number }).walletIndex } } }),
    })
    const t = await setup({ frame, accounts: [walletAccount(eth.address, 'ethereum')] })
    await expect(t.api.create()).rejects.toMatchObject({ code: 'EMBEDDED_WALLET_ALREADY_EXISTS', message: T.alreadyExists })
    await expect(t.api.create({ walletIndex: -1 })).rejects.toMatchObject({ message: T.negativeIndex })
    await expect(t.api.create({ walletIndex: 0 })).rejects.toMatchObject({ message: T.alreadyExists })
    await expect(t.api.create({ chainType: 'solana', createAdditional: true })).rejects.toMatchObject({ message: T.needsIndexZero })
    await expect(t.api.create({ createAdditional: true })).rejects.toMatchObject({ message: T.missingAfterUpdate })
    expect(frame.of('wallets:add')[0].payload).toMatchObject({ chainType: 'ethereum', walletIndex: 1, entropyId: eth.address })
  })

  it('imports a key into a root of its own; an imported wallet does not count as the created one', async () => {
    const imp = privateKeyToAccount(generatePrivateKey())
    const importedAccount = { ...walletAccount(imp.address, 'ethereum', 0, imp.address), imported: true } as WireLinkedAccount
    const frame = fakeFrame({
      'wallets:import': () => ({ data: { entropyId: imp.address, entropyIdVerifier: 'ethereum-address-verifier', wallet: { address: imp.address, chainType: 'ethereum', walletIndex: 0 }, recoveryMethod: 'privy' } }),
      'wallets:create': () => ({ data: { entropyId: eth.address, entropyIdVerifier: 'ethereum-address-verifier', wallets: [{ address: eth.address, chainType: 'ethereum', walletIndex: 0 }], recoveryMethod: 'privy' } }),
    })
    const t = await setup({ frame })
    await expect(t.api.importWallet({ privateKey: ' ' })).rejects.toMatchObject({ message: T.invalidEthereumKey })
    await expect(t.api.importWallet({ privateKey: '', chainType: 'solana' })).rejects.toMatchObject({ message: T.invalidSolanaKey })
    expect(frame.of('wallets:import')).toEqual([])
    t.net.on('GET', '/users/me', { user: wireUser({ accounts: [emailAccount('ana@example.com'), importedAccount] }) })
    const w = await t.api.importWallet({ privateKey: '0xabc' })
    expect(w).toMatchObject({ address: imp.address, imported: true, walletIndex: 0, entropyId: imp.address })
    expect(frame.of('wallets:import')[0].payload).toMatchObject({ chainType: 'ethereum', privateKey: '0xabc' })
    // create() still makes the user's created root (a new one, not wallets:add on the imported key).
    t.net.on('GET', '/users/me', { user: wireUser({ accounts: [emailAccount('ana@example.com'), importedAccount, walletAccount(eth.address, 'ethereum')] }) })
    await expect(t.api.create()).resolves.toMatchObject({ address: eth.address, imported: false })
    expect(frame.of('wallets:create')).toHaveLength(1)
  })

  it('refuses without a session', async () => {
    const t = await createTestKernel({ plugins: [embeddedWallet({ frameUrl: FRAME_URL, frameTarget: fakeFrame().target })] })
    await expect(t.kernel.plugin('embedded-wallet').create()).rejects.toMatchObject({ code: 'MUST_BE_AUTHENTICATED', message: T.mustBeAuthenticated })
  })

  it('embedded wallets need HTTPS except on localhost', async () => {
    const t = await setup({ accounts: [walletAccount(eth.address, 'ethereum')], options: { frameUrl: 'http://wallet.example.com' } })
    await expect(t.api.frame()).rejects.toMatchObject({ message: T.httpsOnly })
  })
})

describe('frame replies', () => {
  it('ignores replies from another origin or another window', async () => {
    for (const reply of [{ origin: 'http://evil.example' }, { fromSelf: false }]) {
      const frame = fakeFrame({}, reply)
      const t = await setup({ frame, accounts: [walletAccount(eth.address, 'ethereum')], options: { readyTimeoutMs: 200 } })
      await expect(t.api.frame()).rejects.toMatchObject({ message: T.failedToConnect })
      expect(frame.of('ready').length).toBeGreaterThan(0)
    }
  })
})

describe('signer', () => {
  const signing = (): Record<string, Handler> => ({
    'wallets:rpc': async (m) => {
      const p = m.payload as { request: { method: string; params: [Hex, string] } }
      if (p.request.method !== 'personal_sign') return { error: { type: 'invalid_request_arguments', message: 'unexpected' } }
      return { data: { method: 'personal_sign', data: await eth.signMessage({ message: { raw: p.request.params[0] } }) } }
    },
  })

  it('signs through the frame after the sensitiveAction hook', async () => {
    const t = await setup({ frame: fakeFrame(signing()), accounts: [walletAccount(eth.address, 'ethereum')] })
    const sig = await t.api.signer(eth.address).signMessage('hello')
    expect(await verifyMessage({ address: eth.address, message: 'hello', signature: sig })).toBe(true)
    expect(t.sensitive).toEqual(['sign_message'])
    const rpc = t.frame.of('wallets:rpc')[0].payload as Record<string, unknown>
    expect(rpc).toMatchObject({ chainType: 'ethereum', hdWalletIndex: 0, entropyId: eth.address, entropyIdVerifier: 'ethereum-address-verifier' })
    await expect(t.api.signer(eth.address).signMessage('')).rejects.toMatchObject({ message: T.messageEmpty })
    expect(() => t.api.signer('0x' + '2'.repeat(40))).toThrow(T.notFound)
  })

  it('a refusal in sensitiveAction (MFA cancelled) stops the signature', async () => {
    const t = await setup({ frame: fakeFrame(signing()), accounts: [walletAccount(eth.address, 'ethereum')] })
    t.kernel.hooks.sensitiveAction.tapPromise('test-mfa-cancel', async () => {
      throw new Error('Verification canceled')
    })
    await expect(t.api.signer(eth.address).signMessage('x')).rejects.toThrow('Verification canceled')
    expect(t.frame.of('wallets:rpc')).toHaveLength(0)
  })

  it('recovers silently (privy) when the device has no share, then signs', async () => {
    let onDevice = false
    const h = signing()
    const frame = fakeFrame({
      'wallets:rpc': (m) => (onDevice ? h['wallets:rpc'](m) : { error: { type: 'wallet_not_on_device', message: 'needs recovery' } }),
      'wallets:recover': () => {
        onDevice = true
        return { data: { entropyId: eth.address, entropyIdVerifier: 'ethereum-address-verifier', recovered: true } }
      },
    })
    const t = await setup({ frame, accounts: [walletAccount(eth.address, 'ethereum')] })
    const sig = await t.api.signer(eth.address).signMessage('after recovery')
    expect(await verifyMessage({ address: eth.address, message: 'after recovery', signature: sig })).toBe(true)
    expect(frame.of('wallets:recover')[0].payload).toMatchObject({ recoveryMethod: 'privy', entropyId: eth.address })
    const events = t.net.callsTo('POST', '/analytics_events').map((c) => c.body.eventName)
    expect(events).toEqual(expect.arrayContaining(['embedded_wallet_pinless_recovery_started', 'embedded_wallet_pinless_recovery_completed']))
  })

  it('a user with MFA and no fresh verification connects locked (no error); signing unlocks after the hook', async () => {
    let verified = false
    const h = signing()
    const mfa = { error: { type: 'missing_or_invalid_mfa', message: 'Missing or invalid MFA' } }
    const frame = fakeFrame({
      'wallets:connect': () => (verified ? { data: { connected: true } } : mfa),
      'wallets:rpc': (m) => (verified ? h['wallets:rpc'](m) : mfa),
    })
    const t = await setup({ frame, accounts: [walletAccount(eth.address, 'ethereum')] })
    t.kernel.hooks.sensitiveAction.tapPromise('test-verify', async () => void (verified = true))
    await t.api.connect()
    expect(t.kernel.pluginState<{ status: string; error: unknown }>('embedded-wallet')!.get()).toMatchObject({ status: 'connected', error: null })
    const sig = await t.api.signer(eth.address).signMessage('after verifying')
    expect(await verifyMessage({ address: eth.address, message: 'after verifying', signature: sig })).toBe(true)
  })

  it('connect on login: a device without its share waits for the login modal to end before MFA and the recovery screen', async () => {
    let onDevice = false
    const frame = fakeFrame({
      'wallets:connect': () => (onDevice ? { data: { connected: true } } : { error: { type: 'wallet_not_on_device', message: 'needs recovery' } }),
      'wallets:recover': () => {
        onDevice = true
        return { data: { entropyId: eth.address, entropyIdVerifier: 'ethereum-address-verifier', recovered: true } }
      },
    })
    // Logged in without a wallet at start (nothing connects on ready); the wallet arrives as at a login.
    const t = await setup({ frame })
    t.kernel.session.setUser(wireUser({ accounts: [emailAccount('ana@example.com'), { ...walletAccount(eth.address, 'ethereum'), recovery_method: 'user-passcode' } as WireLinkedAccount] }))
    const asked: string[] = []
    t.api.registerRecovery('user-passcode', async ({ recover }) => {
      asked.push('password screen')
      await recover({ recoveryMethod: 'user-passcode', recoveryPassword: 'Correct-horse-42' })
    })
    let endLogin!: () => void
    const loginEnded = new Promise<void>((r) => (endLogin = r))
    const connected = t.api.connect({ beforeScreens: () => loginEnded })
    await expect.poll(() => t.api.state.get().status).toBe('recovering')
    // A recovery asked meanwhile (a signature, the app) joins this one: one prompt, not two.
    const again = t.api.recover()
    // The login's modal still shows: no MFA prompt, no recovery screen yet.
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0))
    expect(t.sensitive).toEqual([])
    expect(asked).toEqual([])
    endLogin()
    await Promise.all([connected, again])
    expect(t.sensitive).toEqual(['recover_wallet'])
    expect(asked).toEqual(['password screen'])
    expect(t.api.state.get().status).toBe('connected')
    expect(frame.of('wallets:recover')).toHaveLength(1)
  })

  it('the server refuses the wallet for want of a fresh verification the client thought it had: verifies (mfaRequired) and signs once more (issue 25)', async () => {
    let verified = false
    const h = signing()
    const frame = fakeFrame({
      'wallets:rpc': (m) => (verified ? h['wallets:rpc'](m) : { error: { type: 'missing_or_invalid_mfa', message: 'Missing or invalid MFA' } }),
    })
    const t = await setup({ frame, accounts: [walletAccount(eth.address, 'ethereum')] })
    const asked: unknown[] = []
    // An MFA plugin that believes the session fresh: it verifies only when told the server wants it.
    t.kernel.hooks.sensitiveAction.tapPromise('test-fresh', async (c) => {
      asked.push(c.details?.mfaRequired ?? false)
      if (c.details?.mfaRequired) verified = true
    })
    const sig = await t.api.signer(eth.address).signMessage('verified on the way')
    expect(await verifyMessage({ address: eth.address, message: 'verified on the way', signature: sig })).toBe(true)
    expect(asked).toEqual([false, true])
    expect(frame.of('wallets:rpc')).toHaveLength(2)
  })

  it("fails with 'Unable to recover wallet' when recovery fails, and a user-owned method needs its handler", async () => {
    const frame = fakeFrame({
      'wallets:rpc': () => ({ error: { type: 'wallet_not_on_device', message: 'needs recovery' } }),
      'wallets:recover': () => ({ error: { type: 'error', message: 'Embedded wallet not found' } }),
    })
    const t = await setup({ frame, accounts: [walletAccount(eth.address, 'ethereum')] })
    await expect(t.api.signer(eth.address).signMessage('x')).rejects.toMatchObject({ message: T.unableToRecover })
    expect(t.api.state.get().status).toBe('needs-recovery')
    await expect(t.api.recover({ recoveryMethod: 'dropbox' as never })).rejects.toMatchObject({ message: T.recoveryNotSupported }) // user-owned methods have the recovery screens' handlers
    const off = t.api.registerRecovery('user-passcode', async ({ recover }) => recover({ recoveryMethod: 'user-passcode', recoveryPassword: 'pw' }))
    await expect(t.api.recover({ recoveryMethod: 'user-passcode' })).rejects.toMatchObject({ message: 'Embedded wallet not found' })
    expect(frame.of('wallets:recover').at(-1)!.payload).toMatchObject({ recoveryMethod: 'user-passcode', recoveryPassword: 'pw' })
    off()
  })
})

describe('storage blocked or partitioned (issue 26)', () => {
  const created = (storage?: 'session' | 'persistent') => ({
    data: { entropyId: eth.address, entropyIdVerifier: 'ethereum-address-verifier', wallets: [{ address: eth.address, chainType: 'ethereum', walletIndex: 0 }], recoveryMethod: 'privy', storage },
  })

  it('a frame that keeps the wallet for this tab only: state says session and the explanation opens once, when no flow is open', async () => {
    const imp = privateKeyToAccount(generatePrivateKey())
    const frame = fakeFrame({
      ready: () => ({ data: { version: 1, storage: 'session' } }),
      'wallets:create': () => created('session'),
      'wallets:import': () => ({ data: { entropyId: imp.address, entropyIdVerifier: 'ethereum-address-verifier', wallet: { address: imp.address, chainType: 'ethereum', walletIndex: 0 }, recoveryMethod: 'privy', storage: 'session' } }),
    })
    const t = await setup({ frame })
    const nav = t.kernel.screens
    t.net.on('GET', '/users/me', { user: wireUser({ accounts: [emailAccount('ana@example.com'), walletAccount(eth.address, 'ethereum')] }) })
    await t.api.create()
    expect(t.api.state.get().storage).toBe('session')
    await expect.poll(() => nav.getState().current?.id).toBe('embedded-wallet-storage')
    nav.dismiss()
    t.net.on('GET', '/users/me', {
      user: wireUser({ accounts: [emailAccount('ana@example.com'), walletAccount(eth.address, 'ethereum'), { ...walletAccount(imp.address, 'ethereum', 0, imp.address), imported: true } as WireLinkedAccount] }),
    })
    await t.api.importWallet({ privateKey: '0xabc' })
    // Once per page: a second wallet on this device does not repeat it.
    expect(nav.getState().open).toBe(false)
  })

  it('the explanation waits for an open flow (the login) to close, then opens in a flow of its own', async () => {
    const frame = fakeFrame({ ready: () => ({ data: { version: 1, storage: 'session' } }), 'wallets:create': () => created('session') })
    const t = await setup({ frame })
    const nav = t.kernel.screens
    nav.register({ id: 'test-login-screen', component: () => null })
    const flow = nav.open('test-login-screen', {})
    t.net.on('GET', '/users/me', { user: wireUser({ accounts: [emailAccount('ana@example.com'), walletAccount(eth.address, 'ethereum')] }) })
    await t.api.create()
    expect(nav.getState().current?.id).toBe('test-login-screen')
    nav.close('logged in')
    expect(await flow).toEqual({ ok: true, value: 'logged in' })
    await expect.poll(() => nav.getState().current?.id).toBe('embedded-wallet-storage')
    expect(nav.getState().intent).toBe('update')
  })

  it('persistent storage: no explanation', async () => {
    const frame = fakeFrame({ ready: () => ({ data: { version: 1, storage: 'persistent' } }), 'wallets:create': () => created('persistent') })
    const t = await setup({ frame })
    t.net.on('GET', '/users/me', { user: wireUser({ accounts: [emailAccount('ana@example.com'), walletAccount(eth.address, 'ethereum')] }) })
    await t.api.create()
    expect(t.api.state.get().storage).toBe('persistent')
    expect(t.kernel.screens.getState().open).toBe(false)
  })

  it("a storage failure of the frame reads the plugin's clear text, never the browser's IndexedDB message", async () => {
    const frame = fakeFrame({ 'wallets:create': () => ({ error: { type: 'storage_unavailable', message: 'The user denied permission to access the database.' } }) })
    const t = await setup({ frame })
    const err = await t.api.create().catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'EMBEDDED_WALLET_STORAGE_UNAVAILABLE', message: T.storageUnavailable })
    expect((err as Error).message).not.toMatch(/denied permission|database/)
    await t.kernel.loadDeclarations() // error views declared lazily
    expect(t.kernel.screens.resolveError(err, { method: 'embedded-wallet' })).toMatchObject({ detail: T.storageUnavailable })
  })
})

describe('EIP-1193 provider', () => {
  it('answers accounts and chain, switches within the configured chains, signs, and uses EIP-1193 errors', async () => {
    const frame = fakeFrame({
      'wallets:rpc': async (m) => {
        const p = m.payload as { request: { params: [Hex] } }
        return { data: { method: 'personal_sign', data: await eth.signMessage({ message: { raw: p.request.params[0] } }) } }
      },
    })
    const t = await setup({ frame, accounts: [walletAccount(eth.address, 'ethereum')] })
    const wallet = t.api.ethereumWallets()[0]
    const provider = await wallet.getEthereumProvider!()
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([eth.address])
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x7a69')
    const changed: string[] = []
    provider.on('chainChanged', (id: string) => changed.push(id))
    await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] })
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x1')
    expect(changed).toEqual(['0x1'])
    await expect(provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x89' }] })).rejects.toMatchObject({ code: 4902 })
    await expect(provider.request({ method: 'eth_sign', params: [] })).rejects.toMatchObject({ code: 4200 })
    await expect(provider.request({ method: 'personal_sign', params: ['0x68690a', '0x' + '3'.repeat(40)] })).rejects.toMatchObject({ code: 4100 })
    const sig = (await provider.request({ method: 'personal_sign', params: ['0x6869', eth.address] })) as Hex
    expect(await verifyMessage({ address: eth.address, message: 'hi', signature: sig })).toBe(true)
  })

  it('hands signing to the approvals plugin when one is set up (unless headless)', async () => {
    const t = await setup({ accounts: [walletAccount(eth.address, 'ethereum')] })
    const handled: string[] = []
    const approvals = { id: 'approvals', kind: 'feature' as const, setup: (ctx: any) => ctx.provide({ handle: async (r: { method: string }) => (handled.push(r.method), '0xabc') }) }
    const t2 = await createTestKernel({
      user: t.user,
      plugins: [embeddedWallet({ frameUrl: FRAME_URL, frameTarget: fakeFrame().target, chains: [foundry] }), approvals],
    })
    const api = t2.kernel.plugin('embedded-wallet')
    const provider = await api.ethereumWallets()[0].getEthereumProvider!()
    expect(await provider.request({ method: 'personal_sign', params: ['0x01', eth.address] })).toBe('0xabc')
    expect(handled).toEqual(['personal_sign'])
  })
})

describe('Solana wallet (wallet-standard)', () => {
  it('registers with the page registry and signs messages in the frame', async () => {
    const { ed25519 } = await import('@noble/curves/ed25519.js')
    const { base58 } = await import('@scure/base')
    const secret = ed25519.utils.randomSecretKey()
    const address = base58.encode(ed25519.getPublicKey(secret))
    const registered: any[] = []
    const onRegister = (e: Event) => (e as CustomEvent).detail({ register: (w: unknown) => registered.push(w) })
    window.addEventListener('wallet-standard:register-wallet', onRegister)
    const frame = fakeFrame({
      'wallets:rpc': (m) => {
        const p = m.payload as { chainType: string; request: { method: string; params: { message: string } } }
        expect(p).toMatchObject({ chainType: 'solana', hdWalletIndex: 0 })
        const sig = ed25519.sign(Uint8Array.from(atob(p.request.params.message), (c) => c.charCodeAt(0)), secret)
        return { data: { method: 'signMessage', data: { signature: btoa(String.fromCharCode(...sig)) } } }
      },
    })
    await setup({ frame, accounts: [walletAccount(eth.address, 'ethereum'), walletAccount(address, 'solana')] })
    await expect.poll(() => registered.length).toBe(1)
    window.removeEventListener('wallet-standard:register-wallet', onRegister)
    const wallet = registered[0]
    expect(wallet.name).toBe('Portico Embedded Wallet')
    expect(wallet.chains).toContain('solana:mainnet')
    const { accounts } = await wallet.features['standard:connect'].connect()
    expect(accounts.map((a: { address: string }) => a.address)).toEqual([address])
    const message = new TextEncoder().encode('gm')
    const [out] = await wallet.features['solana:signMessage'].signMessage({ account: accounts[0], message })
    expect(ed25519.verify(out.signature, message, base58.decode(address))).toBe(true)
    expect(wallet.features['solana:signTransaction'].supportedTransactionVersions).toEqual(['legacy', 0])
  })
})

describe('React hooks', () => {
  it('useWallets / useSolanaWallets list the embedded wallets', async () => {
    const { renderHook } = await import('@testing-library/react')
    const { createElement } = await import('react')
    const { PorticoProvider } = await import('portico/ui/screens')
    const { useWallets, useSolanaWallets, useCreateWallet } = await import('./index')
    const t = await setup({ accounts: [walletAccount(eth.address, 'ethereum'), walletAccount(SOL, 'solana')] })
    const wrapper = ({ children }: { children: unknown }) => createElement(PorticoProvider as never, { kernel: t.kernel } as never, children as never)
    const { result } = renderHook(() => ({ all: useWallets(), sol: useSolanaWallets(), create: useCreateWallet() }), { wrapper: wrapper as never })
    expect(result.current.all.wallets.map((w) => w.chainType)).toEqual(['ethereum', 'solana'])
    expect(result.current.sol.wallets.map((w) => w.address)).toEqual([SOL])
    expect(result.current.create.creating).toBe(false)
    expect(typeof result.current.create.createWallet).toBe('function')
  })
})

describe('new device: step-up (issue 26)', () => {
  const recovered = { data: { entropyId: eth.address, entropyIdVerifier: 'ethereum-address-verifier', recovered: true } }
  const stepUpRequired = { error: { type: 'device_step_up_required', message: 'Confirm it’s you to use your wallet on this device.' } }
  /** A new device: no share (rpc needs recovery); the recovery share needs the step-up; the code is '123456'. */
  function newDevice(start: unknown = { data: { method: 'email', to: 'a•••@example.com' } }) {
    const state = { onDevice: false, granted: false }
    const frame = fakeFrame({
      'wallets:rpc': async (m) => {
        if (!state.onDevice) return { error: { type: 'wallet_not_on_device', message: 'needs recovery' } }
        const p = m.payload as { request: { params: [Hex, string] } }
        return { data: { method: 'personal_sign', data: await eth.signMessage({ message: { raw: p.request.params[0] } }) } }
      },
      'wallets:recover': () => {
        if (!state.granted) return stepUpRequired
        state.granted = false
        state.onDevice = true
        return recovered
      },
      'wallets:step-up-start': () => start as never,
      'wallets:step-up-verify': (m) => {
        const code = (m.payload as { code?: string }).code
        if (code === '123456' || (code === undefined && (start as { data?: { method?: string } }).data?.method === 'mfa')) {
          state.granted = true
          return { data: { verified: true } }
        }
        return { error: { type: 'error', message: 'Invalid code. Please try again.' } }
      },
    })
    return { frame, state }
  }
  /** Waits for the step-up screen and returns its params. */
  const stepUpScreen = async (t: Awaited<ReturnType<typeof setup>>) => {
    await expect.poll(() => t.kernel.screens.getState().current?.id).toBe('embedded-wallet-step-up')
    return t.kernel.screens.getState().current!.params as { method: string; to: string; submit(code: string): Promise<void>; resend(): Promise<void> }
  }

  it("'Confirm it’s you' opens with where the code went; a wrong code fails clearly, the right one lets the recovery run again, then it signs", async () => {
    const { frame } = newDevice()
    const t = await setup({ frame, accounts: [walletAccount(eth.address, 'ethereum')] })
    const sig = t.api.signer(eth.address).signMessage('on a new device')
    const params = await stepUpScreen(t)
    expect(params).toMatchObject({ method: 'email', to: 'a•••@example.com' })
    await expect(params.submit('000000')).rejects.toMatchObject({ message: 'Invalid code. Please try again.' })
    await params.resend()
    expect(frame.of('wallets:step-up-start')).toHaveLength(2)
    await params.submit('123456')
    t.kernel.screens.close({ verified: true })
    expect(await verifyMessage({ address: eth.address, message: 'on a new device', signature: await sig })).toBe(true)
    expect(frame.of('wallets:recover')).toHaveLength(2)
    expect(frame.of('wallets:step-up-verify').map((m) => (m.payload as { code?: string }).code)).toEqual(['000000', '123456'])
    expect(frame.of('wallets:step-up-start')[0].payload).toMatchObject({ entropyId: eth.address, entropyIdVerifier: 'ethereum-address-verifier' })
  })

  it("× on 'Confirm it’s you' cancels: the signature fails with the flow's exit and nothing is retried", async () => {
    const { frame } = newDevice()
    const t = await setup({ frame, accounts: [walletAccount(eth.address, 'ethereum')] })
    const sig = t.api.signer(eth.address).signMessage('cancelled')
    await stepUpScreen(t)
    t.kernel.screens.dismiss()
    await expect(sig).rejects.toMatchObject({ code: 'exited_update_flow' })
    expect(frame.of('wallets:recover')).toHaveLength(1)
    expect(frame.of('wallets:rpc')).toHaveLength(1)
    expect(t.api.state.get().status).toBe('needs-recovery')
  })

  it('an MFA user confirms with the MFA verification (mfaRequired), no code screen', async () => {
    const { frame } = newDevice({ data: { method: 'mfa' } })
    const t = await setup({ frame, accounts: [walletAccount(eth.address, 'ethereum')] })
    const sig = await t.api.signer(eth.address).signMessage('mfa user')
    expect(await verifyMessage({ address: eth.address, message: 'mfa user', signature: sig })).toBe(true)
    expect(t.kernel.screens.getState().open).toBe(false)
    expect(frame.of('wallets:step-up-verify')[0].payload).not.toHaveProperty('code')
  })

  it('no channel for the step-up, or a removed device: the frame’s clear text, not "Unable to recover wallet"', async () => {
    const unavailable = T.stepUpUnavailable
    const { frame } = newDevice({ error: { type: 'step_up_unavailable', message: unavailable } })
    const t = await setup({ frame, accounts: [walletAccount(eth.address, 'ethereum')] })
    await expect(t.api.signer(eth.address).signMessage('x')).rejects.toMatchObject({ code: 'STEP_UP_UNAVAILABLE', message: unavailable })
    const revoked = fakeFrame({ 'wallets:rpc': () => ({ error: { type: 'device_revoked', message: T.deviceRevoked } }) })
    const r = await setup({ frame: revoked, accounts: [walletAccount(eth.address, 'ethereum')] })
    await expect(r.api.signer(eth.address).signMessage('x')).rejects.toMatchObject({ code: 'DEVICE_REVOKED', message: 'This device was removed from your wallet.' })
    expect(revoked.of('wallets:recover')).toHaveLength(0)
  })

  it('devices() reads GET /wallets/devices; removeDevice() goes through the frame (signed by this device)', async () => {
    const frame = fakeFrame({ 'wallets:revoke-device': () => ({ data: { devices: [{ id: 'd1', label: 'Chrome on Linux', createdAt: 1, lastUsedAt: 2, sessionOnly: false, current: true }] } }) })
    const t = await setup({ frame, accounts: [walletAccount(eth.address, 'ethereum')] })
    t.net.on('GET', '/wallets/devices', {
      devices: [
        { id: 'd1', label: 'Chrome on Linux', created_at: 1, last_used_at: 2, session_only: false, current: true },
        { id: 'd2', label: 'Firefox on Windows', created_at: 3, last_used_at: 4, session_only: true, current: false },
      ],
    })
    expect(await t.api.devices()).toEqual([
      { id: 'd1', label: 'Chrome on Linux', createdAt: 1, lastUsedAt: 2, sessionOnly: false, current: true },
      { id: 'd2', label: 'Firefox on Windows', createdAt: 3, lastUsedAt: 4, sessionOnly: true, current: false },
    ])
    expect(await t.api.removeDevice('d2')).toHaveLength(1)
    expect(frame.of('wallets:revoke-device')[0].payload).toMatchObject({ deviceId: 'd2' })
  })
})
