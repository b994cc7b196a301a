import { describe, expect, it } from 'vitest'
import { createMethodRegistry } from './methods'
import { normaliseFields, toUser, type WalletAccount } from './user'
import type { WireUser } from './wire'

const T = 1_700_000_000
const acc = (type: string, fields: Record<string, unknown>) => ({
  type,
  verified_at: T,
  first_verified_at: T - 100,
  latest_verified_at: T + 100,
  ...fields,
})

const raw: WireUser = {
  id: 'did:portico:1',
  created_at: T,
  has_accepted_terms: true,
  is_guest: false,
  custom_metadata: { plan: 'pro' },
  mfa_methods: [{ type: 'totp', verified_at: T }],
  linked_accounts: [
    acc('email', { address: 'a@b.co' }),
    acc('phone', { number: '+15555550100' }),
    acc('wallet', { address: '0xabc', chain_type: 'ethereum', chain_id: 'eip155:1', wallet_client_type: 'metamask', connector_type: 'injected', wallet_index: 0 }),
    acc('wallet', { address: 'So1', chain_type: 'solana', delegated: true }),
    acc('smart_wallet', { address: '0xsmart', smart_wallet_type: 'safe' }),
    acc('cross_app', { subject: 's', provider_app_id: 'app2', embedded_wallets: [{ address: '0x1' }] }),
    acc('google_oauth', { subject: 'g1', email: 'g@x.co', name: 'G' }),
    acc('twitter_oauth', { subject: 't1', username: 'tw' }),
    acc('custom_auth', { custom_user_id: 'cu1' }),
    acc('farcaster', { fid: 42, owner_address: '0xf', username: 'fc', signer_public_key: 'pk' }),
    acc('passkey', { credential_id: 'cred', authenticator_name: 'iCloud Keychain', created_with_browser: 'Chrome', enrolled_in_mfa: true }),
    acc('telegram', { telegram_user_id: '77', first_name: 'T', photo_url: 'https://p' }),
    acc('plugin_thing', { some_field: 'v', happened_at: T }),
  ],
}

/** Descriptors as the plugins declare them: the kernel itself knows no account type. */
function methods() {
  const r = createMethodRegistry()
  r.declare({ id: 'email', displayName: 'e-mail', accountTypes: ['email'], userField: 'email', normalise: (a) => normaliseFields(a, 'address:S') })
  r.declare({
    id: 'signed',
    displayName: 'wallet',
    accountTypes: ['wallet'],
    normalise: (a) => normaliseFields(a, 'address:S chain_type:S chain_id:s wallet_client_type:s imported:b delegated:b wallet_index:n'),
    derive(user) {
      const wallets = user.linkedAccounts.filter((x): x is WalletAccount => x.type === 'wallet')
      user.wallet = wallets[0]
      user.delegatedWallets = wallets.filter((w) => w.delegated)
    },
  })
  r.declare({ id: 'g', displayName: 'Google', accountTypes: ['google_oauth'], userField: 'google', normalise: (a) => normaliseFields(a, 'subject:S email:s name:s username:s') })
  r.declare({ id: 'f', displayName: 'Farcaster', accountTypes: ['farcaster'], userField: 'farcaster', normalise: (a) => normaliseFields(a, 'fid:N owner_address:S username:s signer_public_key:s') })
  return r
}

describe('user record', () => {
  const user = toUser(raw, methods())
  it('turns seconds into dates', () => {
    expect(user.createdAt).toEqual(new Date(T * 1000))
    expect(user.linkedAccounts[0].verifiedAt).toEqual(new Date(T * 1000))
    expect(user.linkedAccounts[0].firstVerifiedAt).toEqual(new Date((T - 100) * 1000))
    expect(user.linkedAccounts[0].latestVerifiedAt).toEqual(new Date((T + 100) * 1000))
    expect(user.mfaMethods).toEqual([{ type: 'totp', verifiedAt: new Date(T * 1000) }])
  })
  it('fills the fields the declared methods name, and what they derive', () => {
    expect(user.email?.address).toBe('a@b.co')
    expect(user.wallet).toMatchObject({ address: '0xabc', chainType: 'ethereum', chainId: 'eip155:1', walletClientType: 'metamask', walletIndex: 0, imported: false })
    expect(user.delegatedWallets.map((w) => w.address)).toEqual(['So1'])
    expect(user.google).toMatchObject({ subject: 'g1', email: 'g@x.co', name: 'G', username: null })
    expect(user.farcaster).toMatchObject({ fid: 42, ownerAddress: '0xf', username: 'fc', signerPublicKey: 'pk' })
    expect(user.hasAcceptedTerms).toBe(true)
    expect(user.isGuest).toBe(false)
    expect(user.customMetadata).toEqual({ plan: 'pro' })
  })
  it('camel-cases the types no method declared, with dates, and names no field for them', () => {
    expect(user.linkedAccounts.find((a) => a.type === 'phone')).toMatchObject({ number: '+15555550100' })
    expect(user.linkedAccounts.find((a) => a.type === 'passkey')).toMatchObject({ credentialId: 'cred', enrolledInMfa: true })
    expect(user.linkedAccounts.at(-1)).toMatchObject({ type: 'plugin_thing', someField: 'v', happenedAt: new Date(T * 1000) })
    expect(user.phone).toBeUndefined()
    expect(user.twitter).toBeUndefined()
    const bare = toUser(raw)
    expect(bare.email).toBeUndefined()
    expect(bare.delegatedWallets).toEqual([])
  })
  it('normaliseFields coerces each kind', () => {
    const a = normaliseFields(acc('x', { s: 3, S: null, b: 'yes', n: '1', N: '42', a: 'no' }), 's:s S:S b:b n:n N:N a:a')
    expect(a).toMatchObject({ s: null, S: '', b: false, n: null, N: 42, a: [] })
  })
  it('defaults what the server left out', () => {
    const u = toUser({ id: 'x', created_at: T } as WireUser)
    expect(u).toMatchObject({ linkedAccounts: [], mfaMethods: [], hasAcceptedTerms: false, isGuest: false, customMetadata: {} })
  })
})
