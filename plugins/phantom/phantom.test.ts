// @vitest-environment happy-dom
/**
 * Phantom's deep-link protocol against an independent NaCl implementation (tweetnacl, what
 * Phantom's own docs use): the box key, sealing both ways; the connect and signMessage links;
 * the return claimed through `returnPath` (params stripped, connected, the connect screen), a
 * refusal (the login-failed screen), and the signature's return finishing SIWS with
 * `connectorType: 'phantom'`.
 */
import { afterEach, describe, expect, it } from 'vitest'
import nacl from 'tweetnacl'
import { base58 } from '@scure/base'
import { authResponse, createTestKernel, pluginContract, TEST_APP_ID, wireUser } from 'portico/testing'
import { WALLET_CONNECT_SCREEN, WALLET_FAILED_SCREEN, walletConnectors } from 'portico/kits/wallet'
import { boxBefore, openJson, sealJson } from './crypto'
import { connectLink, readConnect, readSignature, signMessageLink, type PhantomPending } from './deeplink'
import { DEFAULT_PHANTOM_URL, PHANTOM_CONNECTOR_ID, phantom } from './index'

const KEY = `portico:${TEST_APP_ID}:phantom:deeplink`
const APP = 'https://app.test/page?x=1'

afterEach(() => sessionStorage.clear())

pluginContract(() => phantom({ mode: 'always' }), { loginMethods: ['wallet'] })

/** Phantom's side: its box key pair and a signing key; answers as its docs say. */
function phantomSide() {
  const box = nacl.box.keyPair()
  const signer = nacl.sign.keyPair()
  const address = base58.encode(signer.publicKey)
  const seal = (value: unknown, dappPublic: Uint8Array) => {
    const nonce = nacl.randomBytes(24)
    const data = nacl.box(new TextEncoder().encode(JSON.stringify(value)), nonce, dappPublic, box.secretKey)
    return new URLSearchParams({ phantom_encryption_public_key: base58.encode(box.publicKey), nonce: base58.encode(nonce), data: base58.encode(data) })
  }
  return { box, signer, address, seal }
}

describe('the box (x25519 + HSalsa20 + XSalsa20-Poly1305) matches NaCl', () => {
  it('derives the same shared key and opens what the other side sealed, both ways', () => {
    const a = nacl.box.keyPair()
    const b = nacl.box.keyPair()
    const ours = boxBefore(b.publicKey, a.secretKey)
    expect(Buffer.from(ours).toString('hex')).toBe(Buffer.from(nacl.box.before(b.publicKey, a.secretKey)).toString('hex'))
    const { nonce, payload } = sealJson({ hello: 'phantom' }, ours)
    const opened = nacl.box.open.after(base58.decode(payload), base58.decode(nonce), nacl.box.before(a.publicKey, b.secretKey))
    expect(JSON.parse(new TextDecoder().decode(opened!))).toEqual({ hello: 'phantom' })
    const n = nacl.randomBytes(24)
    const theirs = nacl.box(new TextEncoder().encode('{"ok":1}'), n, a.publicKey, b.secretKey)
    expect(openJson(base58.encode(theirs), base58.encode(n), ours)).toEqual({ ok: 1 })
    // A forged box is refused.
    theirs[0] ^= 1
    expect(() => openJson(base58.encode(theirs), base58.encode(n), ours)).toThrow()
  })
})

describe('the deep links', () => {
  it('connect carries app_url, dapp_encryption_public_key, cluster and redirect_link; the answer gives the account', () => {
    const { url, pending } = connectLink({ baseUrl: DEFAULT_PHANTOM_URL, appUrl: 'https://app.test', cluster: 'devnet', redirectLink: APP }, { intent: 'login' })
    const u = new URL(url)
    expect(`${u.origin}${u.pathname}`).toBe('https://phantom.app/ul/v1/connect')
    expect(Object.fromEntries(u.searchParams)).toMatchObject({ app_url: 'https://app.test', cluster: 'devnet', redirect_link: APP })
    const dappPublic = base58.decode(u.searchParams.get('dapp_encryption_public_key')!)
    expect(dappPublic).toHaveLength(32)
    // The secret key stays in this tab's storage, never in the link.
    expect(url).not.toContain(pending.secretKey)
    const p = phantomSide()
    const next = readConnect(p.seal({ public_key: p.address, session: 'sess-1' }, dappPublic), pending)
    expect(next).toMatchObject({ address: p.address, session: 'sess-1', phantomPublicKey: base58.encode(p.box.publicKey) })

    // signMessage: Phantom opens the payload with its key, signs, seals the signature back.
    const link = new URL(signMessageLink(DEFAULT_PHANTOM_URL, APP, next, 'Sign in please'))
    expect(link.pathname).toBe('/ul/v1/signMessage')
    const body = JSON.parse(
      new TextDecoder().decode(
        nacl.box.open(base58.decode(link.searchParams.get('payload')!), base58.decode(link.searchParams.get('nonce')!), dappPublic, p.box.secretKey)!,
      ),
    )
    expect(body).toMatchObject({ session: 'sess-1', display: 'utf8' })
    expect(new TextDecoder().decode(base58.decode(body.message))).toBe('Sign in please')
    const sig = nacl.sign.detached(base58.decode(body.message), p.signer.secretKey)
    expect(readSignature(p.seal({ signature: base58.encode(sig) }, dappPublic), next)).toEqual(sig)
    expect(() => readSignature(p.seal({ signature: 'abc' }, dappPublic), next)).toThrow()
  })
})

describe('the return through returnPath', () => {
  function pendingConnect(): { pending: PhantomPending; dappPublic: Uint8Array } {
    const { url, pending } = connectLink({ baseUrl: DEFAULT_PHANTOM_URL, appUrl: 'https://app.test', cluster: 'mainnet-beta', redirectLink: APP }, { intent: 'login' })
    sessionStorage.setItem(KEY, JSON.stringify(pending))
    return { pending, dappPublic: base58.decode(new URL(url).searchParams.get('dapp_encryption_public_key')!) }
  }
  const ret = (answer: URLSearchParams, step = 'connect') =>
    `${APP}&portico_wallet_connector=phantom&portico_wallet_client=phantom&portico_wallet_step=${step}&${answer}`

  it('connect: claims and strips the parameters, connects, opens the connect screen (Sign with your wallet)', async () => {
    const { dappPublic } = pendingConnect()
    const p = phantomSide()
    const { kernel, location } = await createTestKernel({
      plugins: [phantom()],
      app: { login_methods: ['wallet'] },
      config: { appearance: { walletChainType: 'solana-only' } },
      url: ret(p.seal({ public_key: p.address, session: 's' }, dappPublic)),
    })
    await kernel.returnFlow
    expect(location.href).toBe(APP)
    const c = walletConnectors(kernel).find((x) => x.id === PHANTOM_CONNECTOR_ID)!
    expect(c.status?.()).toEqual({ connected: true, initialized: true, address: p.address })
    expect(kernel.screens.getState().current).toMatchObject({ id: WALLET_CONNECT_SCREEN, params: { connectorId: PHANTOM_CONNECTOR_ID } })
    expect(c.confirmSign).toBe(true)
    expect(await c.connect()).toBe(p.address)
  })

  it('a refusal (errorCode 4001) opens Could not connect with wallet', async () => {
    pendingConnect()
    const { kernel, location } = await createTestKernel({
      plugins: [phantom()],
      app: { login_methods: ['wallet'] },
      url: ret(new URLSearchParams({ errorCode: '4001', errorMessage: 'User rejected the request.' })),
    })
    await kernel.returnFlow
    expect(location.href).toBe(APP)
    expect(kernel.screens.getState().current?.id).toBe(WALLET_FAILED_SCREEN)
    expect(sessionStorage.getItem(KEY)).toBeNull()
  })

  it('a return nobody asked for (no pending session) is refused', async () => {
    const p = phantomSide()
    const { kernel } = await createTestKernel({ plugins: [phantom()], app: { login_methods: ['wallet'] }, url: ret(p.seal({ public_key: p.address, session: 's' }, p.box.publicKey)) })
    await kernel.returnFlow
    expect(kernel.screens.getState().current?.id).toBe(WALLET_FAILED_SCREEN)
  })

  it('signMessage: the returned signature finishes SIWS with connectorType phantom', async () => {
    const { pending, dappPublic } = pendingConnect()
    const p = phantomSide()
    const connected = readConnect(p.seal({ public_key: p.address, session: 's' }, dappPublic), pending)
    sessionStorage.setItem(KEY, JSON.stringify({ ...connected, step: 'sign', message: 'the SIWS message' }))
    const sig = nacl.sign.detached(new TextEncoder().encode('the SIWS message'), p.signer.secretKey)
    const { kernel, net } = await createTestKernel({
      plugins: [phantom()],
      app: { login_methods: ['wallet'] },
      config: { appearance: { walletChainType: 'solana-only' } },
      url: ret(p.seal({ signature: base58.encode(sig) }, dappPublic), 'sign'),
    })
    await kernel.returnFlow
    net.on('POST', '/siws/authenticate', authResponse(wireUser()))
    const c = walletConnectors(kernel).find((x) => x.id === PHANTOM_CONNECTOR_ID)!
    expect(c.confirmSign).toBe(false)
    const { meta } = await c.signIn(p.address, 'login')
    const [call] = net.callsTo('POST', '/siws/authenticate')
    expect(call.body).toMatchObject({ message: 'the SIWS message', signature: Buffer.from(sig).toString('base64'), walletClientType: 'phantom', connectorType: 'phantom', mode: 'login-or-sign-up' })
    expect(meta).toMatchObject({ method: 'siws', walletClientType: 'phantom', chainType: 'solana' })
  })

  it('offers the deep link only on a phone without Phantom injected (mode auto)', async () => {
    const { kernel } = await createTestKernel({ plugins: [phantom()], app: { login_methods: ['wallet'] }, config: { appearance: { walletChainType: 'solana-only' } } })
    expect(walletConnectors(kernel).map((c) => c.id)).toEqual([])
    const { kernel: always } = await createTestKernel({ plugins: [phantom({ mode: 'always' })], app: { login_methods: ['wallet'] }, config: { appearance: { walletChainType: 'solana-only' } } })
    expect(walletConnectors(always).map((c) => c.id)).toEqual([PHANTOM_CONNECTOR_ID])
    const { kernel: eth } = await createTestKernel({ plugins: [phantom({ mode: 'always' })], app: { login_methods: ['wallet'] } })
    expect(walletConnectors(eth)).toEqual([])
  })
})
