import { describe, expect, it } from 'vitest'
import { passkeyTitle, toUser } from './user'
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

describe('user record', () => {
  const user = toUser(raw)
  it('turns seconds into dates', () => {
    expect(user.createdAt).toEqual(new Date(T * 1000))
    expect(user.linkedAccounts[0].verifiedAt).toEqual(new Date(T * 1000))
    expect(user.linkedAccounts[0].firstVerifiedAt).toEqual(new Date((T - 100) * 1000))
    expect(user.linkedAccounts[0].latestVerifiedAt).toEqual(new Date((T + 100) * 1000))
    expect(user.mfaMethods).toEqual([{ type: 'totp', verifiedAt: new Date(T * 1000) }])
  })
  it('derives the single accessors', () => {
    expect(user.email?.address).toBe('a@b.co')
    expect(user.phone?.number).toBe('+15555550100')
    expect(user.wallet).toMatchObject({ address: '0xabc', chainType: 'ethereum', chainId: 'eip155:1', walletClientType: 'metamask', walletIndex: 0, imported: false })
    expect(user.delegatedWallets.map((w) => w.address)).toEqual(['So1'])
    expect(user.smartWallet).toMatchObject({ address: '0xsmart', smartWalletType: 'safe' })
    expect(user.google).toMatchObject({ subject: 'g1', email: 'g@x.co', name: 'G', username: null })
    expect(user.twitter?.username).toBe('tw')
    expect(user.customAuth?.customUserId).toBe('cu1')
    expect(user.farcaster).toMatchObject({ fid: 42, ownerAddress: '0xf', username: 'fc', signerPublicKey: 'pk' })
    expect(user.telegram).toMatchObject({ telegramUserId: '77', firstName: 'T', photoUrl: 'https://p' })
    expect(user.hasAcceptedTerms).toBe(true)
    expect(user.isGuest).toBe(false)
    expect(user.customMetadata).toEqual({ plan: 'pro' })
  })
  it('normalises the cross-app and passkey accounts', () => {
    expect(user.linkedAccounts.find((a) => a.type === 'cross_app')).toMatchObject({ providerApp: { id: 'app2' }, embeddedWallets: [{ address: '0x1' }], smartWallets: [] })
    expect(user.linkedAccounts.find((a) => a.type === 'passkey')).toMatchObject({ credentialId: 'cred', enrolledInMfa: true, createdWithOs: null })
  })
  it('camel-cases unknown types and lets a plugin normaliser win', () => {
    expect(user.linkedAccounts.at(-1)).toMatchObject({ type: 'plugin_thing', someField: 'v', happenedAt: new Date(T * 1000) })
    const custom = toUser(raw, (a) => (a.type === 'email' ? { type: 'email', address: 'OVERRIDE', verifiedAt: null, firstVerifiedAt: null, latestVerifiedAt: null } : undefined))
    expect(custom.email?.address).toBe('OVERRIDE')
  })
  it('defaults what the server left out', () => {
    const u = toUser({ id: 'x', created_at: T } as WireUser)
    expect(u).toMatchObject({ linkedAccounts: [], mfaMethods: [], hasAcceptedTerms: false, isGuest: false, customMetadata: {} })
  })
  it("titles passkeys: name and browser, else browser and OS, else 'Unknown device'", () => {
    expect(passkeyTitle({ authenticatorName: '1Password', createdWithBrowser: 'Chrome', createdWithOs: 'macOS' })).toBe('1Password (Chrome)')
    expect(passkeyTitle({ authenticatorName: null, createdWithBrowser: 'Safari', createdWithOs: 'iOS' })).toBe('Safari on iOS')
    expect(passkeyTitle({ authenticatorName: null, createdWithBrowser: null, createdWithOs: null })).toBe('Unknown device')
  })
})
