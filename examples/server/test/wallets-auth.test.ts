import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts'
import { createSiweMessage } from 'viem/siwe'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { SignJWT, generateKeyPair } from 'jose'
import type { WireAuthResponse } from '../../../kernel/wire'
import type { Store } from '../src/core/store'
import { createSiwsMessage } from '../src/features/wallet-login/siws-message'
import { ALLOW, DEMO, ORIGIN, TERMS, prodOptions, startTestServer, uniqueEmail, type TestServer, openTestStore } from './helpers'

let store: Store
let s: TestServer

beforeAll(async () => {
  store = await openTestStore()
  s = await startTestServer(store)
})
afterAll(async () => {
  await s?.close()
  await store?.close()
})

const auth = (r: { body: WireAuthResponse }) => r.body.token!

async function siwe(
  path: 'authenticate' | 'link',
  o: {
    key?: `0x${string}`
    token?: string
    domain?: string
    expirationTime?: Date
    signWith?: `0x${string}`
    appId?: string
    chainId?: number
    claimedChainId?: string
    uri?: string
    issuedAt?: Date
  } = {},
) {
  const account = privateKeyToAccount(o.key ?? generatePrivateKey())
  const init = await s.call('/api/v1/siwe/init', { body: { address: account.address, token: 'c' }, appId: o.appId })
  expect(init.status).toBe(200)
  const message = createSiweMessage({
    address: account.address,
    chainId: o.chainId ?? 1,
    domain: o.domain ?? 'localhost:5173',
    nonce: init.body.nonce,
    uri: o.uri ?? ORIGIN,
    version: '1',
    issuedAt: o.issuedAt ?? new Date(),
    expirationTime: o.expirationTime,
    statement: 'Sign in to Portico Demo',
  })
  const signer = o.signWith ? privateKeyToAccount(o.signWith) : account
  const signature = await signer.signMessage({ message })
  const r = await s.call<WireAuthResponse>(`/api/v1/siwe/${path}`, {
    body: { message, signature, chainId: o.claimedChainId ?? `eip155:${o.chainId ?? 1}`, walletClientType: 'metamask', connectorType: 'injected', ...(path === 'authenticate' ? { mode: 'login-or-sign-up' } : {}) },
    token: o.token,
    appId: o.appId,
  })
  return { r, account, message, signature, init }
}

function solanaKey() {
  const secret = ed25519.utils.randomSecretKey()
  return { secret, address: base58.encode(ed25519.getPublicKey(secret)) }
}

async function siws(path: 'authenticate' | 'link', o: { key?: ReturnType<typeof solanaKey>; token?: string; domain?: string; tamper?: boolean } = {}) {
  const key = o.key ?? solanaKey()
  const init = await s.call('/api/v1/siws/init', { body: { address: key.address, token: 'c' } })
  expect(init.status).toBe(200)
  const message = createSiwsMessage({
    domain: o.domain ?? 'localhost:5173',
    address: key.address,
    statement: 'Sign in to Portico Demo',
    uri: ORIGIN,
    version: '1',
    chainId: 'mainnet',
    nonce: init.body.nonce,
    issuedAt: new Date().toISOString(),
  })
  const sig = ed25519.sign(new TextEncoder().encode(o.tamper ? message + ' ' : message), key.secret)
  const r = await s.call<WireAuthResponse>(`/api/v1/siws/${path}`, {
    body: { message, signature: Buffer.from(sig).toString('base64'), walletClientType: 'phantom', connectorType: 'solana_adapter' },
    token: o.token,
  })
  return { r, key }
}

describe('SIWE', () => {
  it('init returns a nonce; authenticate with a real viem signature logs in', async () => {
    const key = generatePrivateKey()
    const { r, account, init } = await siwe('authenticate', { key })
    expect(init.body.nonce).toMatch(/^[a-zA-Z0-9]{8,}$/)
    expect(init.body.expires_at).toBeGreaterThan(Date.now() / 1000)
    expect(r.status).toBe(200)
    expect(r.body.is_new_user).toBe(true)
    expect(r.body.user.linked_accounts).toEqual([
      expect.objectContaining({
        type: 'wallet',
        address: account.address,
        chain_type: 'ethereum',
        chain_id: 'eip155:1',
        wallet_client_type: 'metamask',
        connector_type: 'injected',
      }),
    ])
    const again = await siwe('authenticate', { key })
    expect(again.r.body.user.id).toBe(r.body.user.id)
    expect(again.r.body.is_new_user).toBe(false)
  })

  it('nonce is single use', async () => {
    const { r, message, signature } = await siwe('authenticate')
    expect(r.status).toBe(200)
    const replay = await s.call('/api/v1/siwe/authenticate', { body: { message, signature } })
    expect(replay.status).toBe(401)
    expect(replay.body.code).toBe('invalid_credentials')
  })

  it('refuses a foreign domain, a wrong signer, an expired message, a malformed address', async () => {
    expect((await siwe('authenticate', { domain: 'evil.example' })).r.body.code).toBe('invalid_credentials')
    expect((await siwe('authenticate', { signWith: generatePrivateKey() })).r.status).toBe(401)
    expect((await siwe('authenticate', { expirationTime: new Date(Date.now() - 1000) })).r.status).toBe(401)
    const bad = await s.call('/api/v1/siwe/init', { body: { address: '0x123' } })
    expect(bad.status).toBe(422)
  })

  it('link, conflict (not transferable), one wallet per user, unlink', async () => {
    const u = await s.emailLogin(uniqueEmail())
    const noAuth = await siwe('link')
    expect(noAuth.r.status).toBe(401)
    expect(noAuth.r.body.code).toBe('must_be_authenticated')
    const linked = await siwe('link', { token: auth(u) })
    expect(linked.r.status).toBe(200)
    expect(linked.r.body.user.linked_accounts.map((a) => a.type).sort()).toEqual(['email', 'wallet'])
    const more = await siwe('link', { token: auth(u) })
    expect(more.r.body).toMatchObject({ code: 'cannot_link_more_of_type', error: 'User already has an account of type wallet linked.' })

    const ownerKey = generatePrivateKey()
    await siwe('authenticate', { key: ownerKey })
    const v = await s.emailLogin(uniqueEmail())
    const conflict = await siwe('link', { key: ownerKey, token: auth(v) })
    expect(conflict.r.status).toBe(400)
    expect(conflict.r.body).toMatchObject({ code: 'linked_to_another_user', error: 'This account has already been linked to another user.' })

    const un = await s.call<WireAuthResponse>('/api/v1/siwe/unlink', { body: { address: linked.account.address.toLowerCase() }, token: auth(u) })
    expect(un.status).toBe(200)
    expect(un.body.user.linked_accounts.map((a) => a.type)).toEqual(['email'])
  })

  it('allowlist applies to wallet addresses', async () => {
    const listed = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' as const
    expect(privateKeyToAccount(listed).address).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
    expect((await siwe('authenticate', { key: listed, appId: ALLOW })).r.status).toBe(200)
    const other = await siwe('authenticate', { appId: ALLOW })
    expect(other.r.status).toBe(403)
    expect(other.r.body.code).toBe('allowlist_rejected')
  })
})

describe('SIWS', () => {
  it('authenticate with an ed25519 signature', async () => {
    const key = solanaKey()
    const { r } = await siws('authenticate', { key })
    expect(r.status).toBe(200)
    expect(r.body.user.linked_accounts).toEqual([
      expect.objectContaining({ type: 'wallet', address: key.address, chain_type: 'solana', wallet_client_type: 'phantom' }),
    ])
    expect((await siws('authenticate', { key })).r.body.user.id).toBe(r.body.user.id)
  })

  it('bad signature and foreign domain are refused', async () => {
    expect((await siws('authenticate', { tamper: true })).r.body.code).toBe('invalid_credentials')
    expect((await siws('authenticate', { domain: 'evil.example' })).r.status).toBe(401)
  })

  it('Solana wallets transfer: link conflict gives account_transfer_required, /siws/transfer moves it', async () => {
    const key = solanaKey()
    const owner = await siws('authenticate', { key })
    const u = await s.emailLogin(uniqueEmail())
    const conflict = await siws('link', { key, token: auth(u) })
    expect(conflict.r.status).toBe(400)
    expect(conflict.r.body.code).toBe('account_transfer_required')
    expect((conflict.r.body as any).data).toMatchObject({ account: key.address, account_type: 'wallet', link_method: 'siws' })
    const moved = await s.call<WireAuthResponse>('/api/v1/siws/transfer', {
      body: { nonce: (conflict.r.body as any).data.nonce, address: key.address },
      token: auth(u),
    })
    expect(moved.status).toBe(200)
    expect(moved.body.user.linked_accounts.map((a) => a.type).sort()).toEqual(['email', 'wallet'])
    expect((await s.call('/api/v1/sessions', { body: { refresh_token: owner.r.body.refresh_token } })).status).toBe(401)
    const un = await s.call('/api/v1/siws/unlink', { body: { address: key.address }, token: auth(u) })
    expect(un.status).toBe(200)
  })
})

describe('guest', () => {
  const cred = () => randomBytes(32).toString('base64url')

  it('same credential, same guest user', async () => {
    const c = cred()
    const a = await s.call<WireAuthResponse>('/api/v1/guest/authenticate', { body: { guest_credential: c } })
    expect(a.status).toBe(200)
    expect(a.body.user.is_guest).toBe(true)
    expect(a.body.is_new_user).toBe(true)
    const b = await s.call<WireAuthResponse>('/api/v1/guest/authenticate', { body: { guest_credential: c } })
    expect(b.body.user.id).toBe(a.body.user.id)
    expect(b.body.is_new_user).toBe(false)
    expect((await s.call('/api/v1/guest/authenticate', { body: { guest_credential: 'short' } })).status).toBe(422)
    expect((await s.call('/api/v1/guest/authenticate', { body: { guest_credential: cred() }, appId: TERMS })).status).toBe(200)
  })

  it('a guest who logs in with e-mail keeps the account and stops being a guest', async () => {
    const g = await s.call<WireAuthResponse>('/api/v1/guest/authenticate', { body: { guest_credential: cred() } })
    const email = uniqueEmail('guest')
    const r = await s.emailLogin(email, { token: auth(g) })
    expect(r.status).toBe(200)
    expect(r.body.user.id).toBe(g.body.user.id)
    expect(r.body.user.is_guest).toBe(false)
    expect(r.body.user.linked_accounts.map((a) => a.type)).toEqual(['email'])
  })

  it('a guest who links e-mail stops being a guest', async () => {
    const g = await s.call<WireAuthResponse>('/api/v1/guest/authenticate', { body: { guest_credential: cred() } })
    const email = uniqueEmail('guestlink')
    await s.call('/api/v1/passwordless/init', { body: { email } })
    const r = await s.call<WireAuthResponse>('/api/v1/passwordless/link', { body: { email, code: await s.code(email) }, token: auth(g) })
    expect(r.status).toBe(200)
    expect(r.body.user.id).toBe(g.body.user.id)
    expect(r.body.user.is_guest).toBe(false)
  })
})

describe('custom auth', () => {
  it('dev issuer token logs in; same sub, same user', async () => {
    const t = await s.call('/dev/custom-token?user=alice', { appId: null })
    expect(t.status).toBe(200)
    const r = await s.call<WireAuthResponse>('/api/v1/custom_jwt_account/authenticate', { body: { token: t.body.token } })
    expect(r.status).toBe(200)
    expect(r.body.user.linked_accounts).toEqual([expect.objectContaining({ type: 'custom_auth', custom_user_id: 'alice' })])
    const t2 = await s.call('/dev/custom-token?user=alice', { appId: null })
    const r2 = await s.call<WireAuthResponse>('/api/v1/custom_jwt_account/authenticate', { body: { token: t2.body.token } })
    expect(r2.body.user.id).toBe(r.body.user.id)
  })

  it('a token from another key is refused; apps without custom auth refuse the method', async () => {
    const { privateKey } = await generateKeyPair('ES256')
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256' })
      .setSubject('mallory')
      .setIssuer('portico-dev-issuer')
      .setAudience('portico-demo')
      .setExpirationTime('5m')
      .sign(privateKey)
    const r = await s.call('/api/v1/custom_jwt_account/authenticate', { body: { token: forged } })
    expect(r.status).toBe(401)
    expect(r.body.code).toBe('invalid_credentials')
    const t = await s.call('/dev/custom-token?user=bob', { appId: null })
    const other = await s.call('/api/v1/custom_jwt_account/authenticate', { body: { token: t.body.token }, appId: TERMS })
    expect(other.status).toBe(403)
    expect(other.body.code).toBe('disallowed_login_method')
  })
})

describe('SIWE message checks (issue 19)', () => {
  it('refuses an unsupported chain id, a chainId that differs from the message, a foreign URI, a missing-in-effect or stale Issued At', async () => {
    const cases: [string, Parameters<typeof siwe>[1]][] = [
      ['chain', { chainId: 31337 }],
      ['claimed chain', { chainId: 1, claimedChainId: 'eip155:8453' }],
      ['uri', { uri: 'https://evil.example/login' }],
      ['future', { issuedAt: new Date(Date.now() + 5 * 60_000) }],
      ['stale', { issuedAt: new Date(Date.now() - 60 * 60_000) }],
    ]
    for (const [name, o] of cases) {
      const { r } = await siwe('authenticate', o)
      expect([name, r.status, r.body.code]).toEqual([name, 401, 'invalid_credentials'])
    }
    // A supported chain other than mainnet (Base) logs in.
    expect((await siwe('authenticate', { chainId: 8453 })).r.status).toBe(200)
  })

  it('SIWS: a foreign URI or a stale Issued At is refused', async () => {
    for (const bad of [{ uri: 'https://evil.example' }, { issuedAt: new Date(Date.now() - 3600_000).toISOString() }]) {
      const k = solanaKey()
      const init = await s.call('/api/v1/siws/init', { body: { address: k.address, token: 'c' } })
      const message = createSiwsMessage({
        domain: 'localhost:5173',
        address: k.address,
        uri: ORIGIN,
        version: '1',
        nonce: init.body.nonce,
        issuedAt: new Date().toISOString(),
        ...bad,
      })
      const signature = Buffer.from(ed25519.sign(new TextEncoder().encode(message), k.secret)).toString('base64')
      const r = await s.call('/api/v1/siws/authenticate', { body: { message, signature } })
      expect(r.status).toBe(401)
      expect(r.body.code).toBe('invalid_credentials')
    }
  })
})

describe('production mode', () => {
  it('has no /dev routes', async () => {
    const prod = await startTestServer(store, prodOptions())
    try {
      expect((await prod.call('/dev/outbox', { appId: null })).status).toBe(404)
      expect((await prod.call('/dev/custom-token?user=a', { appId: null })).status).toBe(404)
      expect((await prod.call(`/api/v1/apps/${DEMO}`)).status).toBe(200)
    } finally {
      await prod.close()
    }
  })
})
