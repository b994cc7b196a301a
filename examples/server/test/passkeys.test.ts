import { generateKeyPairSync } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WireAuthResponse } from '../../../kernel/wire'
import type { Store } from '../src/core/store'
import { browserAndOs } from '../src/user-agent'
import { ORIGIN, startTestServer, uniqueEmail, type TestServer, openTestStore } from './helpers'
import { SoftAuthenticator } from './soft-authenticator'

const PK = 'portico-test-passkey-0001'
const NOSIGNUP = 'portico-test-pknosign-001'
const MAC_CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const ONE_PASSWORD = 'bada5566-a7aa-401f-bd96-45619a55120d'

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

/** Rows of every table a passkey route writes (a refused request must change none). */
async function snapshot() {
  const [r] = await store.query<Record<string, number>>(
    `SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM accounts) AS accounts,
            (SELECT count(*)::int FROM passkey_credentials) AS creds, (SELECT count(*)::int FROM sessions) AS sessions,
            (SELECT count(*)::int FROM nonces WHERE used_at IS NOT NULL) AS used,
            (SELECT coalesce(sum(counter), 0)::int FROM passkey_credentials) AS counters`,
  )
  return r
}

const call = (path: string, body: unknown, o: { token?: string; appId?: string; ua?: string } = {}) =>
  s.call(`/api/v1/passkeys${path}`, { body, token: o.token, appId: o.appId ?? PK, headers: o.ua ? { 'user-agent': o.ua } : undefined })

async function signUp(a = new SoftAuthenticator(), o: { aaguid?: string; ua?: string } = {}) {
  const init = await call('/register/init', { relying_party: 'localhost' })
  expect(init.status).toBe(200)
  const response = a.create(init.body.options, { origin: ORIGIN, aaguid: o.aaguid })
  const r = await call('/register', { relying_party: 'localhost', challenge: init.body.options.challenge, authenticator_response: response }, { ua: o.ua })
  expect(r.status).toBe(200)
  return { a, res: r.body as WireAuthResponse, cred: a.credentials[a.credentials.length - 1] }
}

async function logIn(a: SoftAuthenticator, o: Parameters<SoftAuthenticator['get']>[1] = { origin: ORIGIN }) {
  const init = await call('/authenticate/init', { relying_party: 'localhost' })
  expect(init.status).toBe(200)
  return call('/authenticate', { relying_party: 'localhost', challenge: init.body.options.challenge, authenticator_response: a.get(init.body.options, o) })
}

async function link(a: SoftAuthenticator, token: string, o: { origin?: string } = {}) {
  const init = await call('/link/init', { relying_party: 'localhost' }, { token })
  if (init.status !== 200) return init
  return call('/link', { challenge: init.body.options.challenge, authenticator_response: a.create(init.body.options, { origin: o.origin ?? ORIGIN }) }, { token })
}

describe('passkeys: sign up, log in', () => {
  it('register creates a user with a passkey account (authenticator name from the AAGUID, browser and OS from the User-Agent)', async () => {
    const { res, cred } = await signUp(new SoftAuthenticator(), { aaguid: ONE_PASSWORD, ua: MAC_CHROME })
    expect(res.is_new_user).toBe(true)
    expect(res.token).toBeTruthy()
    const acct = res.user.linked_accounts[0] as Record<string, unknown>
    expect(acct).toMatchObject({
      type: 'passkey',
      credential_id: cred.id,
      authenticator_name: '1Password',
      created_with_browser: 'Chrome',
      created_with_os: 'macOS',
      enrolled_in_mfa: false,
    })
    // Nothing of the credential's key material goes out.
    expect(JSON.stringify(res)).not.toMatch(/public_key|counter/)
  })

  it('register/init answers options for the app (rp id, name, resident key) and a challenge', async () => {
    const init = await call('/register/init', {})
    expect(init.status).toBe(200)
    expect(init.body.relying_party).toBe('localhost')
    expect(init.body.options).toMatchObject({ rp: { id: 'localhost', name: 'Passkey Test' }, attestation: 'none' })
    expect(init.body.options.authenticatorSelection.residentKey).toBe('required')
    expect(init.body.options.challenge).toMatch(/^[A-Za-z0-9_-]{20,}$/)
  })

  it('authenticate logs the same user in; the sign counter is stored and must grow', async () => {
    const { a, res, cred } = await signUp()
    const r = await logIn(a)
    expect(r.status).toBe(200)
    expect(r.body.user.id).toBe(res.user.id)
    expect(r.body.is_new_user).toBe(false)
    const [{ counter }] = await store.query<{ counter: number }>('SELECT counter FROM passkey_credentials WHERE credential_id = $1', [cred.id])
    expect(Number(counter)).toBe(1)
    // A cloned authenticator (the counter did not grow) is refused and writes nothing.
    const before = await snapshot()
    const again = await logIn(a, { origin: ORIGIN, counter: 1 })
    expect(again.status).toBe(401)
    expect(again.body.code).toBe('invalid_credentials')
    expect(await snapshot()).toEqual(before)
    expect((await logIn(a, { origin: ORIGIN, counter: 7 })).status).toBe(200)
  })

  it('sign-up is refused when passkeysForSignupEnabled is off (login still works there); the method must be enabled', async () => {
    const init = await call('/register/init', {}, { appId: NOSIGNUP })
    expect(init.status).toBe(403)
    expect(init.body.code).toBe('passkey_not_allowed')
    expect((await call('/authenticate/init', {}, { appId: NOSIGNUP })).status).toBe(200)
    // An app whose login methods do not list passkey (the demo app lists it since issue 25).
    const off = await call('/authenticate/init', {}, { appId: 'portico-test-emailonly-01' })
    expect(off.status).toBe(403)
    expect(off.body.code).toBe('disallowed_login_method')
  })
})

describe('passkeys: bad inputs answer 4xx and write nothing', () => {
  it('a replayed challenge (register and authenticate)', async () => {
    const a = new SoftAuthenticator()
    const init = await call('/register/init', {})
    const response = a.create(init.body.options, { origin: ORIGIN })
    const body = { challenge: init.body.options.challenge, authenticator_response: response }
    expect((await call('/register', body)).status).toBe(200)
    const before = await snapshot()
    const replay = await call('/register', body)
    expect(replay.status).toBe(401)
    expect(replay.body).toMatchObject({ code: 'invalid_credentials', error: 'Invalid or expired passkey challenge.' })
    // The same challenge with a fresh credential: still refused.
    const other = await call('/register', { ...body, authenticator_response: new SoftAuthenticator().create(init.body.options, { origin: ORIGIN }) })
    expect(other.status).toBe(401)
    expect(await snapshot()).toEqual(before)

    const ainit = await call('/authenticate/init', {})
    const assertion = a.get(ainit.body.options, { origin: ORIGIN })
    expect((await call('/authenticate', { challenge: ainit.body.options.challenge, authenticator_response: assertion })).status).toBe(200)
    const before2 = await snapshot()
    const again = await call('/authenticate', { challenge: ainit.body.options.challenge, authenticator_response: a.get(ainit.body.options, { origin: ORIGIN }) })
    expect(again.status).toBe(401)
    expect(await snapshot()).toEqual(before2)
  })

  it('a challenge of another purpose, an expired one, an unknown one', async () => {
    const a = new SoftAuthenticator()
    const ainit = await call('/authenticate/init', {})
    const before = await snapshot()
    // An authentication challenge cannot register.
    const wrongPurpose = await call('/register', { challenge: ainit.body.options.challenge, authenticator_response: a.create({ ...ainit.body.options, rp: { id: 'localhost' } }, { origin: ORIGIN }) })
    expect(wrongPurpose.status).toBe(401)
    const init = await call('/register/init', {})
    await store.query('UPDATE nonces SET expires_at = 1 WHERE nonce = $1', [init.body.options.challenge])
    const expired = await call('/register', { challenge: init.body.options.challenge, authenticator_response: a.create(init.body.options, { origin: ORIGIN }) })
    expect(expired.status).toBe(401)
    const unknown = await call('/register', { challenge: 'not-a-challenge', authenticator_response: a.create(init.body.options, { origin: ORIGIN, challenge: 'not-a-challenge' }) })
    expect(unknown.status).toBe(401)
    expect(await snapshot()).toMatchObject({ users: before.users, accounts: before.accounts, creds: before.creds, sessions: before.sessions })
  })

  it('a wrong origin, a wrong relying party, a response for another challenge', async () => {
    const a = new SoftAuthenticator()
    const before = await snapshot()
    for (const o of [
      { origin: 'https://evil.example' },
      { origin: ORIGIN, rpId: 'evil.example' },
      { origin: ORIGIN, type: 'webauthn.get' },
    ]) {
      const init = await call('/register/init', {})
      const r = await call('/register', { challenge: init.body.options.challenge, authenticator_response: a.create(init.body.options, o) })
      expect(r.status, JSON.stringify(o)).toBe(401)
      expect(r.body.code).toBe('invalid_credentials')
    }
    const i1 = await call('/register/init', {})
    const i2 = await call('/register/init', {})
    const swapped = await call('/register', { challenge: i1.body.options.challenge, authenticator_response: a.create(i2.body.options, { origin: ORIGIN }) })
    expect(swapped.status).toBe(401)
    // A relying party the app does not have.
    const rp = await call('/register/init', { relying_party: 'evil.example' })
    expect(rp.status).toBe(422)
    expect(rp.body.data.fields.relying_party).toBeTruthy()
    expect(await snapshot()).toMatchObject({ users: before.users, accounts: before.accounts, creds: before.creds, sessions: before.sessions, used: before.used })

    // Log in from a wrong origin / relying party.
    const { a: b } = await signUp()
    const before2 = await snapshot()
    expect((await logIn(b, { origin: 'https://evil.example' })).status).toBe(401)
    expect((await logIn(b, { origin: ORIGIN, rpId: 'evil.example' })).status).toBe(401)
    expect(await snapshot()).toEqual(before2)
  })

  it('a forged signature, an unknown credential, garbled and malformed responses', async () => {
    const { a, cred } = await signUp()
    const before = await snapshot()
    const forged = await logIn(a, { origin: ORIGIN, signWith: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey })
    expect(forged.status).toBe(401)
    const stranger = new SoftAuthenticator()
    stranger.create({ challenge: 'x', rp: { id: 'localhost' } }, { origin: ORIGIN })
    const unknown = await logIn(stranger)
    expect(unknown.status).toBe(401)
    expect(unknown.body.error).toBe('Unknown passkey.')

    const init = await call('/authenticate/init', {})
    const good = a.get(init.body.options, { origin: ORIGIN })
    const challenge = init.body.options.challenge
    const garbled = [
      { ...good, response: { ...good.response, signature: 'AAAA' } },
      { ...good, response: { ...good.response, authenticatorData: 'AAAA' } },
      { ...good, response: { ...good.response, clientDataJSON: Buffer.from('{not json').toString('base64url') } },
      { ...good, id: cred.id, rawId: 'ZZZZ' },
    ]
    for (const g of garbled) {
      const r = await call('/authenticate', { challenge, authenticator_response: g })
      expect(r.status, JSON.stringify(g).slice(0, 80)).toBe(401)
    }
    const rinit = await call('/register/init', {})
    const created = a.create(rinit.body.options, { origin: ORIGIN })
    for (const g of [
      { ...created, response: { ...created.response, attestationObject: 'AAAA' } },
      { ...created, response: { ...created.response, attestationObject: Buffer.from('garbage garbage garbage').toString('base64url') } },
    ]) {
      const r = await call('/register', { challenge: rinit.body.options.challenge, authenticator_response: g })
      expect(r.status).toBe(401)
    }
    // Malformed bodies: 422 with the field.
    for (const [path, body, field] of [
      ['/authenticate', { challenge }, 'authenticator_response'],
      ['/authenticate', { authenticator_response: good }, 'challenge'],
      ['/authenticate', { challenge, authenticator_response: 'x' }, 'authenticator_response'],
      ['/authenticate', { challenge, authenticator_response: { ...good, type: 'password' } }, 'authenticator_response.type'],
      ['/authenticate', { challenge, authenticator_response: { ...good, id: 'not base64!' } }, 'authenticator_response.id'],
      ['/register', { challenge, authenticator_response: { ...created, response: {} } }, 'authenticator_response.response.clientDataJSON'],
      ['/unlink', {}, 'credential_id'],
    ] as const) {
      const r = await call(path, body)
      expect(r.status, `${path} ${field}`).toBe(422)
      expect(r.body.data.fields[field], `${path} ${field}`).toBeTruthy()
    }
    expect((await s.call('/api/v1/passkeys/authenticate', { raw: '{', appId: PK })).status).toBe(400)
    expect(await snapshot()).toEqual(before)
  })

  it('a missing or bad token on link/init, link and unlink', async () => {
    const { a, res } = await signUp()
    const before = await snapshot()
    const noToken = await call('/link/init', {})
    expect(noToken.status).toBe(401)
    expect(noToken.body.code).toBe('must_be_authenticated')
    const init = await call('/link/init', {}, { token: res.token! })
    const response = a.create(init.body.options, { origin: ORIGIN })
    const linkNoToken = await call('/link', { challenge: init.body.options.challenge, authenticator_response: response })
    expect(linkNoToken.body.code).toBe('must_be_authenticated')
    const badToken = await call('/link', { challenge: init.body.options.challenge, authenticator_response: response }, { token: 'garbage.token.value' })
    expect(badToken.status).toBe(401)
    expect(badToken.body.code).toBe('missing_or_invalid_token')
    const unlink = await call('/unlink', { credential_id: a.credentials[0].id })
    expect(unlink.status).toBe(401)
    expect(unlink.body.code).toBe('missing_or_invalid_token')
    // Another user cannot use this user's link challenge.
    const other = await signUp()
    const stolen = await call('/link', { challenge: init.body.options.challenge, authenticator_response: response }, { token: other.res.token! })
    expect(stolen.status).toBe(401)
    const after = await snapshot()
    expect(after).toMatchObject({ accounts: before.accounts + 1, creds: before.creds + 1, users: before.users + 1 })
  })
})

describe('passkeys: link refuses bad inputs without writing', () => {
  it('a replayed link challenge, a wrong origin, a garbled attestation, a credential already registered', async () => {
    const { a, res } = await signUp()
    const token = res.token!
    const init = await call('/link/init', {}, { token })
    const good = a.create(init.body.options, { origin: ORIGIN })
    expect((await call('/link', { challenge: init.body.options.challenge, authenticator_response: good }, { token })).status).toBe(200)
    const before = await snapshot()
    const replay = await call('/link', { challenge: init.body.options.challenge, authenticator_response: new SoftAuthenticator().create(init.body.options, { origin: ORIGIN }) }, { token })
    expect(replay.status).toBe(401)
    const i2 = await call('/link/init', {}, { token })
    const evil = await call('/link', { challenge: i2.body.options.challenge, authenticator_response: new SoftAuthenticator().create(i2.body.options, { origin: 'https://evil.example' }) }, { token })
    expect(evil.status).toBe(401)
    const created = new SoftAuthenticator().create(i2.body.options, { origin: ORIGIN })
    const garbled = await call('/link', { challenge: i2.body.options.challenge, authenticator_response: { ...created, response: { ...created.response, attestationObject: 'AAAA' } } }, { token })
    expect(garbled.status).toBe(401)
    // The same credential again (a second registration of one key): refused, nothing written.
    const again = await call('/link', { challenge: i2.body.options.challenge, authenticator_response: { ...good, response: { ...good.response, clientDataJSON: Buffer.from(JSON.stringify({ type: 'webauthn.create', challenge: i2.body.options.challenge, origin: ORIGIN })).toString('base64url') } } }, { token })
    expect(again.status).toBeGreaterThanOrEqual(400)
    expect(again.status).toBeLessThan(500)
    expect(await snapshot()).toMatchObject({ users: before.users, accounts: before.accounts, creds: before.creds, sessions: before.sessions })
  })
})

describe('passkeys: link, limits, unlink', () => {
  it('links up to 5 passkeys; link/init and link refuse a sixth with no partial write', async () => {
    const { a, res } = await signUp()
    const token = res.token!
    for (let i = 2; i <= 4; i++) expect((await link(a, token)).status).toBe(200)
    // A challenge taken at 4 passkeys, used after the fifth was linked.
    const early = await call('/link/init', {}, { token })
    expect(early.status).toBe(200)
    const fifth = await link(a, token)
    expect(fifth.status).toBe(200)
    expect(fifth.body.user.linked_accounts.filter((x: { type: string }) => x.type === 'passkey')).toHaveLength(5)
    expect(fifth.body.token).toBeNull()
    const before = await snapshot()
    const sixthInit = await call('/link/init', {}, { token })
    expect(sixthInit.status).toBe(400)
    expect(sixthInit.body).toMatchObject({ code: 'cannot_link_more_of_type', error: 'Cannot link more passkeys to account.' })
    const sixth = await call('/link', { challenge: early.body.options.challenge, authenticator_response: a.create(early.body.options, { origin: ORIGIN }) }, { token })
    expect(sixth.status).toBe(400)
    expect(sixth.body.error).toBe('Cannot link more passkeys to account.')
    expect(await snapshot()).toEqual(before)
    // Each of them logs the user in.
    expect((await logIn(a, { origin: ORIGIN, cred: a.credentials[2] })).body.user.id).toBe(res.user.id)
  })

  it('link/init excludes the user’s passkeys; a passkey of another user cannot be linked', async () => {
    const { a, res, cred } = await signUp()
    const init = await call('/link/init', {}, { token: res.token! })
    expect(init.body.options.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([cred.id])
    const emailUser = await s.emailLogin(uniqueEmail(), { appId: PK })
    expect(emailUser.status).toBe(200)
    // Links a passkey to an e-mail user; the user keeps both.
    const linked = await link(new SoftAuthenticator(), emailUser.body.token!)
    expect(linked.status).toBe(200)
    expect(linked.body.user.linked_accounts.map((x: { type: string }) => x.type).sort()).toEqual(['email', 'passkey'])
    void a
  })

  it('unlink removes the passkey and its credential; refused while enrolled in MFA or when it is the last account', async () => {
    const { a, res, cred } = await signUp()
    const token = res.token!
    const last = await call('/unlink', { credential_id: cred.id }, { token })
    expect(last.status).toBe(400)
    expect((await link(a, token)).status).toBe(200)
    const second = a.credentials[1]
    await store.query(`UPDATE accounts SET data = data || '{"enrolled_in_mfa": true}' WHERE identifier = $1`, [second.id])
    const before = await snapshot()
    const mfa = await call('/unlink', { credential_id: second.id }, { token })
    expect(mfa.status).toBe(400)
    expect(mfa.body.error).toBe('This passkey is enrolled in MFA and cannot be unlinked.')
    expect(await snapshot()).toEqual(before)
    const notMine = await call('/unlink', { credential_id: 'AAAAAAAAAAAAAAAAAAAAAA' }, { token })
    expect(notMine.status).toBe(400)
    const ok = await call('/unlink', { credential_id: cred.id }, { token })
    expect(ok.status).toBe(200)
    expect(ok.body.user.linked_accounts.map((x: { credential_id: string }) => x.credential_id)).toEqual([second.id])
    const rows = await store.query('SELECT 1 FROM passkey_credentials WHERE credential_id = $1', [cred.id])
    expect(rows).toHaveLength(0)
    // The unlinked passkey no longer logs in.
    expect((await logIn(a, { origin: ORIGIN, cred })).status).toBe(401)
  })
})

describe('passkeys: display data', () => {
  it('browser and OS from common User-Agents', () => {
    expect(browserAndOs(MAC_CHROME)).toEqual({ browser: 'Chrome', os: 'macOS' })
    expect(browserAndOs('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1')).toEqual({ browser: 'Safari', os: 'iOS' })
    expect(browserAndOs('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0')).toEqual({ browser: 'Edge', os: 'Windows' })
    expect(browserAndOs('Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0')).toEqual({ browser: 'Firefox', os: 'Linux' })
    expect(browserAndOs(undefined)).toEqual({ browser: null, os: null })
  })
})
