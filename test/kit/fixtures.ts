/** Wire-format fixtures: users, tokens and auth responses like the reference server sends. */
import type { WireAppConfig, WireAuthResponse, WireLinkedAccount, WireUser } from '../../kernel/wire'

export const TEST_APP_ID = 'portico-test-app-00000001'

const b64url = (s: string) =>
  btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')

/** An unsigned JWT-shaped token; the client only reads `exp`. */
export function fakeJwt(claims: Record<string, unknown> = {}, expiresInSeconds = 3600): string {
  const now = Math.floor(Date.now() / 1000)
  return [
    b64url(JSON.stringify({ alg: 'ES256', typ: 'JWT' })),
    b64url(JSON.stringify({ iat: now, exp: now + expiresInSeconds, sub: 'did:portico:test', ...claims })),
    'signature',
  ].join('.')
}

let counter = 0
export function wireUser(overrides: Partial<WireUser> & { accounts?: WireLinkedAccount[] } = {}): WireUser {
  const { accounts, ...rest } = overrides
  const now = Math.floor(Date.now() / 1000)
  return {
    id: `did:portico:test-${++counter}`,
    created_at: now,
    linked_accounts: accounts ?? [],
    mfa_methods: [],
    has_accepted_terms: false,
    is_guest: false,
    custom_metadata: {},
    ...rest,
  }
}

export function emailAccount(address: string): WireLinkedAccount {
  const now = Math.floor(Date.now() / 1000)
  return { type: 'email', address, verified_at: now, first_verified_at: now, latest_verified_at: now }
}

export function authResponse(user: WireUser = wireUser(), overrides: Partial<WireAuthResponse> = {}): WireAuthResponse {
  return {
    user,
    token: fakeJwt({ sub: user.id }),
    privy_access_token: null,
    refresh_token: `refresh-${Math.random().toString(36).slice(2)}`,
    identity_token: fakeJwt({ sub: user.id, typ: 'identity' }),
    session_update_action: 'set',
    is_new_user: false,
    ...overrides,
  }
}

export function appConfig(overrides: Partial<WireAppConfig> = {}): WireAppConfig {
  return {
    id: TEST_APP_ID,
    name: 'Test App',
    login_methods: ['email'],
    ...overrides,
  }
}
