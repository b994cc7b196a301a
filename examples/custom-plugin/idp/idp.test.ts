import { createHash, randomBytes } from 'node:crypto'
import { createLocalJWKSet, jwtVerify } from 'jose'
import { describe, expect, it } from 'vitest'
import { createAcmeIdp, RESPONSE_TYPE } from './server'

const ISSUER = 'http://127.0.0.1:8791'
const APP = 'http://127.0.0.1:5173'

const verifier = () => randomBytes(36).toString('base64url')
const challenge = (v: string) => createHash('sha256').update(v).digest('base64url')

async function setup(now = () => Date.now()) {
  const idp = await createAcmeIdp({ issuer: ISSUER, clients: { 'portico-demo': { name: 'Portico Demo', origins: [APP] } }, now })
  const v = verifier()
  const params = {
    response_type: 'code',
    client_id: 'portico-demo',
    redirect_uri: APP,
    state: randomBytes(24).toString('base64url'),
    code_challenge: challenge(v),
    code_challenge_method: 'S256',
  }
  /** Post the consent form like the browser does (same-origin form post). */
  const consent = (fields: Record<string, string>) =>
    idp.app.request('/authorize', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ISSUER },
      body: new URLSearchParams(fields).toString(),
    })
  /** The {type, state, code | error} the result page hands to the opener. */
  const handedBack = async (res: Response) => {
    const html = await res.text()
    const m = html.match(/data-origin="([^"]*)" data-payload="([^"]*)"/)
    if (!m) throw new Error(`no result in page: ${html}`)
    const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&amp;/g, '&')
    return { origin: unescape(m[1]), payload: JSON.parse(unescape(m[2])) }
  }
  const token = (fields: Record<string, string>) =>
    idp.app.request('/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: APP },
      body: new URLSearchParams(fields).toString(),
    })
  const codeFor = async (username = 'alice') =>
    (await handedBack(await consent({ ...params, username, decision: 'allow' }))).payload.code as string
  const exchange = (code: string, over: Record<string, string> = {}) =>
    token({ grant_type: 'authorization_code', code, code_verifier: v, client_id: 'portico-demo', redirect_uri: APP, ...over })
  return { idp, v, params, consent, handedBack, token, codeFor, exchange }
}

describe('Acme ID identity provider', () => {
  it('shows a consent page that cannot be framed and runs no inline script', async () => {
    const { idp, params } = await setup()
    const res = await idp.app.request(`/authorize?${new URLSearchParams(params)}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'")
    const html = await res.text()
    expect(html).toContain('Portico Demo')
    expect(html).toContain('name="username"')
    expect(html).not.toMatch(/<script>/)
  })

  it.each([
    ['client_id', 'nobody', 'Unknown client_id.'],
    ['redirect_uri', 'https://evil.example', 'redirect_uri is not registered for this client.'],
    ['code_challenge_method', 'plain', "code_challenge_method must be 'S256'."],
    ['code_challenge', 'short', 'code_challenge is missing or malformed.'],
    ['state', '', 'state is missing or malformed.'],
  ])('refuses an authorization request with a bad %s', async (key, value, message) => {
    const { idp, params } = await setup()
    const res = await idp.app.request(`/authorize?${new URLSearchParams({ ...params, [key]: value })}`)
    expect(res.status).toBe(400)
    expect(await res.text()).toContain(escapeHtml(message))
  })

  it('hands the code and the state to the registered origin only, in the page body', async () => {
    const { consent, params, handedBack } = await setup()
    const res = await consent({ ...params, username: 'alice', decision: 'allow' })
    const { origin, payload } = await handedBack(res)
    expect(origin).toBe(APP)
    expect(payload).toMatchObject({ type: RESPONSE_TYPE, state: params.state, code: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) })
  })

  it("hands back 'access_denied' when the user denies", async () => {
    const { consent, params, handedBack } = await setup()
    const { payload } = await handedBack(await consent({ ...params, decision: 'deny' }))
    expect(payload).toEqual({ type: RESPONSE_TYPE, state: params.state, error: 'access_denied' })
  })

  it('refuses a consent form posted from another site (CSRF)', async () => {
    const { idp, params } = await setup()
    const res = await idp.app.request('/authorize', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: new URLSearchParams({ ...params, username: 'alice', decision: 'allow' }).toString(),
    })
    expect(res.status).toBe(403)
  })

  it('exchanges a code with the right verifier for an ES256 id_token its JWKS verifies', async () => {
    const { idp, codeFor, exchange } = await setup()
    const res = await exchange(await codeFor('alice'))
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe(APP)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const { id_token } = (await res.json()) as { id_token: string }
    const jwks = (await (await idp.app.request('/.well-known/jwks.json')).json()) as { keys: object[] }
    const { payload, protectedHeader } = await jwtVerify(id_token, createLocalJWKSet(jwks as never), {
      issuer: ISSUER,
      audience: 'portico-demo',
    })
    expect(protectedHeader.alg).toBe('ES256')
    expect(payload.sub).toBe('alice')
  })

  it('refuses a wrong PKCE verifier, and the code is gone afterwards', async () => {
    const { codeFor, exchange } = await setup()
    const code = await codeFor()
    const wrong = await exchange(code, { code_verifier: verifier() })
    expect(wrong.status).toBe(400)
    expect(await wrong.json()).toEqual({ error: 'invalid_grant', error_description: 'PKCE verification failed.' })
    expect((await exchange(code)).status).toBe(400)
  })

  it('a code works once', async () => {
    const { codeFor, exchange } = await setup()
    const code = await codeFor()
    expect((await exchange(code)).status).toBe(200)
    const again = await exchange(code)
    expect(again.status).toBe(400)
    expect(((await again.json()) as { error: string }).error).toBe('invalid_grant')
  })

  it('refuses an expired code, another client or another redirect_uri', async () => {
    let t = Date.now()
    const s = await setup(() => t)
    const expired = await s.codeFor()
    t += 61_000
    expect(((await (await s.exchange(expired)).json()) as { error_description: string }).error_description).toBe(
      'The code is unknown, used or expired.',
    )
    expect((await s.exchange(await s.codeFor(), { client_id: 'other' })).status).toBe(400)
    expect((await s.exchange(await s.codeFor(), { redirect_uri: 'http://127.0.0.1:9999' })).status).toBe(400)
  })

  it('refuses other grant types and a missing verifier', async () => {
    const { codeFor, exchange } = await setup()
    expect(((await (await exchange(await codeFor(), { grant_type: 'password' })).json()) as { error: string }).error).toBe(
      'unsupported_grant_type',
    )
    expect(((await (await exchange(await codeFor(), { code_verifier: '' })).json()) as { error: string }).error).toBe('invalid_request')
  })

  it('gives CORS only to registered origins', async () => {
    const { idp } = await setup()
    const pre = (origin: string) =>
      idp.app.request('/token', { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } })
    expect((await pre(APP)).headers.get('access-control-allow-origin')).toBe(APP)
    expect((await pre('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull()
  })
})

function escapeHtml(s: string) {
  return s.replace(/&/g, '&amp;').replace(/'/g, '&#39;')
}
