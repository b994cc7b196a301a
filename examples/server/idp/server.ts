/**
 * Local OAuth 2.0 / OpenID Connect identity provider stand-in (issue 12). The network is
 * closed, so tests and the offline demo sign in against this server instead of Google,
 * Apple, Discord, GitHub, Instagram, Spotify, TikTok, Twitter and LinkedIn. Each provider is
 * served under `/<provider>/<the provider's real path>` (see `rebase` in
 * ../src/features/oauth/providers.ts) with that provider's documented request parameters and response
 * shapes:
 *
 * - authorize (GET): a consent page, clearly labelled as a local stand-in, with a test-user
 *   picker (`login_hint` preselects; an unknown hint adds that user: 'noemail-…' without an
 *   e-mail, 'suspended-…' suspended) and Allow / Deny buttons.
 *   The form POSTs back to the same path; Allow redirects to redirect_uri with `code` and
 *   `state` (Apple: `response_mode=form_post`, an auto-submitted form), Deny with
 *   `error=access_denied`. TikTok's `client_key`, Twitter's required PKCE, Apple's `user` post.
 * - token (POST): single-use codes (60 s), client authentication as the provider does it
 *   (post, Basic, TikTok's client_key), PKCE S256 check, the provider's token response shape
 *   (id_token for Google, Apple, LinkedIn; Instagram without token_type; TikTok's open_id).
 * - profile (GET, bearer): the provider's profile JSON. A suspended user gets 403.
 *
 * Demo and tests only: users are in memory, codes and tokens too, the signing key is made
 * at start-up. `control` lets tests make it slow or fail.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { Hono, type Context } from 'hono'
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose'
import { OAUTH_PROVIDERS, PROVIDERS, rebase, type OAuthProvider } from '../src/features/oauth/providers'

export interface TestUser {
  id: string
  login: string
  email: string | null
  name: string
  suspended?: boolean
}

export const TEST_USERS: TestUser[] = [
  { id: '1001', login: 'alice', email: 'alice@example.com', name: 'Alice Example' },
  { id: '1002', login: 'bob', email: 'bob@example.com', name: 'Bob Example' },
  { id: '1003', login: 'carol', email: null, name: 'Carol Nomail' },
  { id: '1004', login: 'dave', email: 'dave@example.com', name: 'Dave Suspended', suspended: true },
]

export interface IdpClient {
  clientId: string
  clientSecret: string
}

/** The stand-in's default client per provider (examples/server/apps.json uses these). */
export const LOCAL_CLIENT_SECRET = 'local-stand-in-secret'
export const localClient = (p: OAuthProvider): IdpClient => ({ clientId: `portico-local-${p}`, clientSecret: LOCAL_CLIENT_SECRET })

export interface IdpControl {
  /** Delay before the token and profile endpoints answer (ms). */
  delayMs: number
  /** Answer the token endpoint with this status (e.g. 429, 500) instead. */
  tokenStatus: number | null
  /** Answer the profile endpoint with this status instead. */
  profileStatus: number | null
}

export interface OAuthIdpOptions {
  /** This server's origin, e.g. http://127.0.0.1:8792. */
  origin: string
  clients?: Partial<Record<OAuthProvider, IdpClient>>
  codeTtlMs?: number
  now?: () => number
}

interface CodeRecord {
  provider: OAuthProvider
  clientId: string
  redirectUri: string
  challenge: string | null
  user: TestUser
  scope: string
  expires: number
  used: boolean
}
interface TokenRecord {
  provider: OAuthProvider
  user: TestUser
  expires: number
}

/** Scopes each provider documents (a request naming another one is refused, as the provider does). */
export const KNOWN_SCOPES: Record<OAuthProvider, string[]> = {
  google: ['openid', 'email', 'profile'],
  apple: ['name', 'email'],
  discord: ['identify', 'email', 'guilds', 'connections'],
  github: ['read:user', 'user:email', 'user', 'public_repo', 'repo'],
  instagram: ['instagram_business_basic', 'instagram_business_content_publish'],
  spotify: ['user-read-email', 'user-read-private'],
  tiktok: ['user.info.basic', 'user.info.profile', 'user.info.stats', 'video.list'],
  twitter: ['users.read', 'tweet.read', 'offline.access', 'follows.read'],
  linkedin: ['openid', 'profile', 'email'],
}

const USER_ID = /^[a-z0-9][a-z0-9-]{0,31}$/
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/

export async function createOAuthIdp(opts: OAuthIdpOptions) {
  const origin = opts.origin.replace(/\/+$/, '')
  const now = opts.now ?? Date.now
  const codeTtl = opts.codeTtlMs ?? 60_000
  const clients = Object.fromEntries(OAUTH_PROVIDERS.map((p) => [p, opts.clients?.[p] ?? localClient(p)])) as Record<OAuthProvider, IdpClient>
  const users = new Map(TEST_USERS.map((u) => [u.login, { ...u }]))
  const codes = new Map<string, CodeRecord>()
  const tokens = new Map<string, TokenRecord>()
  const control: IdpControl = { delayMs: 0, tokenStatus: null, profileStatus: null }
  const { privateKey, publicKey } = await generateKeyPair('RS256')
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid: 'stand-in-1', alg: 'RS256', use: 'sig' }
  const app = new Hono()

  const pathOf = (p: OAuthProvider, real: string) => new URL(rebase(origin, p, real)).pathname
  const issuerOf = (p: OAuthProvider) => (PROVIDERS[p].issuer ? rebase(origin, p, PROVIDERS[p].issuer!) : origin)
  const random = () => randomBytes(32).toString('base64url')
  const wait = () => (control.delayMs ? new Promise((r) => setTimeout(r, control.delayMs)) : Promise.resolve())
  const userFor = (hint: string | undefined) => {
    if (!hint || !USER_ID.test(hint)) return undefined
    let u = users.get(hint)
    if (!u) {
      // New test users on demand: 'noemail-…' have no e-mail, 'suspended-…' are suspended.
      u = {
        id: String(2000 + users.size),
        login: hint,
        email: hint.startsWith('noemail') ? null : `${hint}@example.com`,
        name: hint[0].toUpperCase() + hint.slice(1),
        suspended: hint.startsWith('suspended'),
      }
      users.set(hint, u)
    }
    return u
  }
  const subjectOf = (p: OAuthProvider, u: TestUser) => (p === 'github' ? u.id : `${p}-${u.id}`)
  const secretOk = (given: string | undefined, want: string) => {
    if (given === undefined) return false
    const a = Buffer.from(given)
    const b = Buffer.from(want)
    return a.length === b.length && timingSafeEqual(a, b)
  }
  const security = (c: Context) => {
    c.header('content-security-policy', "default-src 'none'; script-src 'self'; style-src 'self'; form-action *; frame-ancestors 'none'; base-uri 'none'")
    c.header('cache-control', 'no-store')
    c.header('referrer-policy', 'no-referrer')
  }

  app.get('/', (c) => {
    security(c)
    const rows = OAUTH_PROVIDERS.map((p) => `<li>${PROVIDERS[p].label}: <code>${origin}${pathOf(p, PROVIDERS[p].authorizationUrl)}</code> (client id <code>${clients[p].clientId}</code>)</li>`).join('')
    return c.html(page('Local test identity provider', `<p>This is a local stand-in for the social login providers, for tests and the offline demo. No real account is used.</p><ul>${rows}</ul>`))
  })
  app.get('/static/form-post.js', (c) => {
    c.header('content-type', 'text/javascript; charset=utf-8')
    c.header('cache-control', 'no-store')
    return c.body("document.querySelector('form[data-auto]')?.submit()\n")
  })
  app.get('/static/idp.css', (c) => {
    c.header('content-type', 'text/css; charset=utf-8')
    return c.body(CSS)
  })

  for (const p of OAUTH_PROVIDERS) {
    const d = PROVIDERS[p]
    const client = clients[p]
    const clientParam = d.clientAuth === 'client_key' ? 'client_key' : 'client_id'

    /** Checks an authorization request; an error string names what is wrong. */
    const checkRequest = (q: Record<string, string | undefined>): string | null => {
      if (q.response_type !== 'code') return 'response_type must be code'
      if (q[clientParam] !== client.clientId) return `unknown ${clientParam}`
      if (!q.redirect_uri || !/^https?:\/\//.test(q.redirect_uri)) return 'redirect_uri must be an http(s) URL'
      if (!q.state) return 'state is required'
      const scopes = (q.scope ?? '').split(d.scopeSeparator).filter(Boolean)
      const unknown = scopes.find((x) => !KNOWN_SCOPES[p].includes(x))
      if (!scopes.length || unknown) return `invalid_scope: ${unknown ?? 'scope is required'}`
      if (q.code_challenge !== undefined && q.code_challenge_method !== 'S256') return 'code_challenge_method must be S256'
      if (p === 'twitter' && !q.code_challenge) return 'PKCE is required (code_challenge)'
      if (p === 'apple' && q.response_mode !== 'form_post') return 'response_mode must be form_post when name or email is requested'
      return null
    }

    app.get(pathOf(p, d.authorizationUrl), (c) => {
      security(c)
      const q = c.req.query()
      const bad = checkRequest(q)
      if (bad) return c.html(page('Invalid request', `<p>${esc(bad)}</p>`), 400)
      const hinted = userFor(q.login_hint)
      const options = [...users.values()]
        .map((u) => `<option value="${esc(u.login)}"${u === hinted ? ' selected' : ''}>${esc(u.name)} (${esc(u.email ?? 'no e-mail')}${u.suspended ? ', suspended' : ''})</option>`)
        .join('')
      const hidden = Object.entries(q)
        .filter(([k]) => k !== 'user' && k !== 'decision')
        .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
        .join('')
      return c.html(
        page(
          `${d.label} — local stand-in`,
          `<p class="banner">Local test identity provider — ${esc(d.label)} stand-in. Not the real ${esc(d.label)}.</p>
<h1>Sign in with ${esc(d.label)}</h1>
<p>An app asks to know your account (${esc(q.scope ?? '')}).</p>
<form method="post" action="${esc(pathOf(p, d.authorizationUrl))}">${hidden}
<label for="user">Test user</label>
<select id="user" name="user">${options}</select>
<div class="actions"><button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button></div>
</form>`,
        ),
      )
    })

    app.post(pathOf(p, d.authorizationUrl), async (c) => {
      security(c)
      const o = c.req.header('origin')
      if (o && o !== origin && o !== 'null') return c.html(page('Invalid request', '<p>Cross-site consent refused.</p>'), 403)
      const q = Object.fromEntries(new URLSearchParams(await c.req.text())) as Record<string, string | undefined>
      const bad = checkRequest(q)
      if (bad) return c.html(page('Invalid request', `<p>${esc(bad)}</p>`), 400)
      const back: Record<string, string> = { state: q.state! }
      if (q.decision === 'allow') {
        const user = userFor(q.user)
        if (!user) return c.html(page('Invalid request', '<p>Pick a test user.</p>'), 400)
        const code = random()
        codes.set(code, {
          provider: p,
          clientId: client.clientId,
          redirectUri: q.redirect_uri!,
          challenge: q.code_challenge ?? null,
          user,
          scope: q.scope ?? d.scopes.join(d.scopeSeparator),
          expires: now() + codeTtl,
          used: false,
        })
        back.code = code
        // Apple posts the user's name (first authorization only; here: always) with the code.
        if (p === 'apple') {
          const [firstName, ...rest] = user.name.split(' ')
          back.user = JSON.stringify({ name: { firstName, lastName: rest.join(' ') }, ...(user.email ? { email: user.email } : {}) })
        }
      } else {
        back.error = 'access_denied'
        if (p === 'apple') back.error = 'user_cancelled_authorize'
      }
      if (q.response_mode === 'form_post') {
        const fields = Object.entries(back)
          .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
          .join('')
        return c.html(
          page(
            `${d.label} — local stand-in`,
            `<form data-auto method="post" action="${esc(q.redirect_uri!)}">${fields}<p>Returning to the app…</p><button type="submit">Continue</button></form><script src="/static/form-post.js"></script>`,
          ),
        )
      }
      const to = new URL(q.redirect_uri!)
      for (const [k, v] of Object.entries(back)) to.searchParams.set(k, v)
      return c.redirect(to.href, 303)
    })

    app.post(pathOf(p, d.tokenUrl), async (c) => {
      await wait()
      if (control.tokenStatus) return c.json({ error: control.tokenStatus === 429 ? 'rate_limited' : 'server_error' }, control.tokenStatus as 429)
      const f = Object.fromEntries(new URLSearchParams(await c.req.text())) as Record<string, string | undefined>
      // Client authentication as the provider documents it.
      let id = f[clientParam] ?? f.client_id
      let secret = f.client_secret
      const basic = c.req.header('authorization')
      if (basic?.startsWith('Basic ')) {
        const [u, s] = Buffer.from(basic.slice(6), 'base64').toString().split(':')
        id = decodeURIComponent(u)
        secret = decodeURIComponent(s ?? '')
      }
      const publicClient = p === 'twitter' && secret === undefined
      if (id !== client.clientId || (!publicClient && !secretOk(secret, client.clientSecret))) {
        return c.json({ error: 'invalid_client', error_description: 'Client authentication failed' }, 401)
      }
      if (f.grant_type !== 'authorization_code') return c.json({ error: 'unsupported_grant_type' }, 400)
      const rec = f.code ? codes.get(f.code) : undefined
      const invalid = (why: string) => c.json({ error: 'invalid_grant', error_description: why }, 400)
      if (!rec || rec.provider !== p) return invalid('Unknown authorization code')
      if (rec.used) {
        codes.delete(f.code!)
        return invalid('Authorization code already used')
      }
      rec.used = true
      if (rec.expires < now()) return invalid('Authorization code expired')
      if (rec.redirectUri !== f.redirect_uri) return invalid('redirect_uri does not match')
      if (rec.challenge) {
        if (!f.code_verifier || !VERIFIER.test(f.code_verifier)) return invalid('code_verifier required')
        const hash = createHash('sha256').update(f.code_verifier).digest('base64url')
        if (hash !== rec.challenge) return invalid('code_verifier does not match')
      }
      const access = random()
      const refresh = random()
      tokens.set(access, { provider: p, user: rec.user, expires: now() + 3600_000 })
      const sub = subjectOf(p, rec.user)
      const idToken = async () =>
        new SignJWT({ email: rec.user.email ?? undefined, email_verified: rec.user.email ? true : undefined })
          .setProtectedHeader({ alg: 'RS256', kid: publicJwk.kid })
          .setIssuer(issuerOf(p))
          .setSubject(sub)
          .setAudience(client.clientId)
          .setIssuedAt(Math.floor(now() / 1000))
          .setExpirationTime(Math.floor(now() / 1000) + 600)
          .sign(privateKey)
      switch (p) {
        case 'instagram':
          return c.json({ access_token: access, user_id: sub, permissions: rec.scope })
        case 'tiktok':
          return c.json({ access_token: access, expires_in: 86400, open_id: sub, refresh_expires_in: 31536000, refresh_token: refresh, scope: rec.scope, token_type: 'Bearer' })
        case 'github':
          return c.json({ access_token: access, scope: rec.scope.replace(/ /g, ','), token_type: 'bearer' })
        case 'apple':
          return c.json({ access_token: access, token_type: 'Bearer', expires_in: 3600, refresh_token: refresh, id_token: await idToken() })
        case 'google':
        case 'linkedin':
          return c.json({
            access_token: access,
            token_type: 'Bearer',
            expires_in: 3599,
            refresh_token: refresh,
            ...(p === 'linkedin' ? { refresh_token_expires_in: 31535999 } : {}),
            scope: rec.scope,
            id_token: await idToken(),
          })
        default:
          return c.json({ access_token: access, token_type: 'Bearer', expires_in: 7200, refresh_token: refresh, scope: rec.scope })
      }
    })

    if (d.profileUrl) {
      app.get(pathOf(p, d.profileUrl), async (c) => {
        await wait()
        if (control.profileStatus) return c.json({ error: 'unavailable' }, control.profileStatus as 500)
        const h = c.req.header('authorization') ?? ''
        const t = h.startsWith('Bearer ') ? tokens.get(h.slice(7)) : undefined
        if (!t || t.provider !== p || t.expires < now()) {
          c.header('www-authenticate', 'Bearer error="invalid_token"')
          return c.json({ error: 'invalid_token' }, 401)
        }
        const u = t.user
        if (u.suspended) return c.json({ title: 'Forbidden', detail: 'User is suspended', type: 'account_suspended' }, 403)
        const sub = subjectOf(p, u)
        switch (p) {
          case 'google':
          case 'linkedin':
            return c.json({ sub, name: u.name, ...(u.email ? { email: u.email, email_verified: true } : {}) })
          case 'discord':
            return c.json({ id: sub, username: u.login, global_name: u.name, email: u.email, verified: !!u.email })
          case 'github':
            return c.json({ id: Number(u.id), login: u.login, name: u.name, email: u.email })
          case 'instagram':
            return c.json({ user_id: sub, username: u.login, id: sub })
          case 'spotify':
            return c.json({ id: sub, display_name: u.name, email: u.email })
          case 'tiktok':
            return c.json({ data: { user: { open_id: sub, union_id: `u-${sub}`, display_name: u.name, username: u.login } }, error: { code: 'ok', message: '' } })
          case 'twitter':
            return c.json({ data: { id: sub, name: u.name, username: u.login } })
          default:
            return c.json({ error: 'not_found' }, 404)
        }
      })
    }
  }
  app.get('/apple/auth/keys', (c) => c.json({ keys: [publicJwk] }))

  return { app, control, publicJwk, clients, users, codes }
}

export type OAuthIdp = Awaited<ReturnType<typeof createOAuthIdp>>

function esc(s: string) {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
}

function page(title: string, body: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><link rel="stylesheet" href="/static/idp.css"></head><body><main>${body}</main></body></html>`
}

const CSS = `body{font-family:system-ui,sans-serif;background:#f4f4f7;margin:0}main{max-width:420px;margin:48px auto;background:#fff;border-radius:12px;padding:24px;box-shadow:0 2px 12px #0002}.banner{background:#fff4d6;border:1px solid #e8c25a;border-radius:8px;padding:8px 12px;font-size:14px}select,button{font-size:16px;padding:8px 12px;margin-top:8px}select{width:100%}.actions{display:flex;gap:8px;margin-top:12px}label{display:block;margin-top:12px;font-weight:600}`
