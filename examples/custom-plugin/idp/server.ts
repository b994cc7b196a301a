/**
 * Acme ID: a tiny OAuth-style identity provider for the custom-plugin example. It is the
 * "other company" a third-party Portico plugin talks to:
 *
 * - `GET  /authorize`  consent page: the user types a username and allows (or denies) the app.
 *                      Required: response_type=code, client_id, redirect_uri (the app's origin),
 *                      state, code_challenge, code_challenge_method=S256.
 * - `POST /authorize`  the consent form; answers with a page that hands `{code, state}` (or
 *                      `{error, state}`) to `window.opener` with `postMessage(…, redirect_uri)`:
 *                      the code never appears in a URL.
 * - `POST /token`      exchanges a code (single use, 60 s) for an ES256 `id_token`, after checking
 *                      the PKCE verifier: BASE64URL(SHA-256(code_verifier)) === code_challenge.
 * - `GET  /.well-known/jwks.json`  the public key that verifies its id_tokens.
 *
 * Demo only: users are whoever the username says, codes live in memory, the signing key is
 * made at start-up.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import { Hono, type Context } from 'hono'
import { cors } from 'hono/cors'
import { csrf } from 'hono/csrf'
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose'

export interface AcmeClient {
  /** Shown on the consent page. */
  name: string
  /** Origins allowed as redirect_uri (the app's page origin; answers go there by postMessage). */
  origins: string[]
}

export interface AcmeIdpOptions {
  /** This server's own origin, e.g. http://127.0.0.1:8791 (the id_token's `iss`). */
  issuer: string
  clients: Record<string, AcmeClient>
  /** Life of an authorization code (default 60 s). */
  codeTtlMs?: number
  /** Life of an id_token (default 300 s). */
  tokenTtlS?: number
  now?: () => number
}

export interface AcmeIdp {
  app: Hono
  publicJwk: JWK
}

/** The message the consent page posts to the opener; the plugin checks each field. */
export const RESPONSE_TYPE = 'acme-id:authorization_response'

const STATE = /^[A-Za-z0-9._~-]{16,256}$/
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/
const USERNAME = /^[a-z0-9][a-z0-9._-]{0,31}$/

interface PendingCode {
  clientId: string
  redirectUri: string
  challenge: string
  sub: string
  expires: number
}

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url')
const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/** Pages allow nothing inline and cannot be framed (clickjacking on the consent button). */
const PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  // Not 'no-referrer': with it, browsers send 'Origin: null' on the consent form post and the CSRF check refuses it.
  'Referrer-Policy': 'same-origin',
  'Cache-Control': 'no-store',
}

function page(c: Context, title: string, body: string, status: 200 | 400 = 200) {
  return c.html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
      `<title>${escape(title)}</title><link rel="stylesheet" href="/static/acme.css"></head>` +
      `<body><main><p class="brand">Acme ID</p>${body}</main></body></html>`,
    status,
    PAGE_HEADERS,
  )
}

const CSS = `body{font:16px system-ui,sans-serif;background:#f4f1ea;margin:0}main{max-width:340px;margin:48px auto;background:#fff;padding:24px;border-radius:12px}
.brand{font-weight:700;color:#c2410c;margin:0 0 8px}label{display:block;margin:16px 0}input{display:block;width:100%;box-sizing:border-box;padding:8px;margin-top:4px;font:inherit}
.row{display:flex;gap:8px}button{flex:1;padding:10px;font:inherit;border-radius:8px;border:1px solid #c2410c;background:#fff;cursor:pointer}button[value=allow]{background:#c2410c;color:#fff}`

/**
 * Reads the result from the page and hands it to the opener, at the registered origin only.
 * The page does not close itself: the opener closes it once the message is in. (Closing here
 * races the message: the opener could see `closed` before the message and report a rejection.)
 */
const RETURN_JS = `(function(){var el=document.getElementById('acme-result');if(!el)return;
var target=el.getAttribute('data-origin');var payload=JSON.parse(el.getAttribute('data-payload'));
if(window.opener){window.opener.postMessage(payload,target);}
else{el.textContent='You can close this window.';}})();`

export async function createAcmeIdp(options: AcmeIdpOptions): Promise<AcmeIdp> {
  const issuer = new URL(options.issuer).origin
  const now = options.now ?? Date.now
  const codeTtlMs = options.codeTtlMs ?? 60_000
  const tokenTtlS = options.tokenTtlS ?? 300
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true })
  const kid = `acme-${randomUUID()}`
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' }
  const codes = new Map<string, PendingCode>()

  type Params = { clientId: string; client: AcmeClient; redirectUri: string; state: string; challenge: string }
  /** Check the authorization request; the error text says which parameter is wrong. */
  function check(q: Record<string, string | undefined>): Params | string {
    const client = q.client_id ? options.clients[q.client_id] : undefined
    if (!client) return 'Unknown client_id.'
    if (!q.redirect_uri || !client.origins.includes(q.redirect_uri)) return 'redirect_uri is not registered for this client.'
    if (q.response_type !== 'code') return "response_type must be 'code'."
    if (!q.state || !STATE.test(q.state)) return 'state is missing or malformed.'
    if (q.code_challenge_method !== 'S256') return "code_challenge_method must be 'S256'."
    if (!q.code_challenge || !CHALLENGE.test(q.code_challenge)) return 'code_challenge is missing or malformed.'
    return { clientId: q.client_id!, client, redirectUri: q.redirect_uri, state: q.state, challenge: q.code_challenge }
  }

  const handBack = (c: Context, p: Params, payload: Record<string, string>) =>
    page(
      c,
      'Acme ID',
      `<p id="acme-result" data-origin="${escape(p.redirectUri)}" data-payload="${escape(
        JSON.stringify({ type: RESPONSE_TYPE, state: p.state, ...payload }),
      )}">Returning to the app…</p><script src="/static/return.js"></script>`,
    )

  const app = new Hono()

  app.get('/static/acme.css', (c) => c.body(CSS, 200, { 'Content-Type': 'text/css; charset=utf-8' }))
  app.get('/static/return.js', (c) => c.body(RETURN_JS, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }))

  app.get('/.well-known/jwks.json', (c) => c.json({ keys: [publicJwk] }, 200, { 'Cache-Control': 'max-age=60' }))
  app.get('/.well-known/openid-configuration', (c) =>
    c.json({
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      response_types_supported: ['code'],
      response_modes_supported: ['web_message'],
      code_challenge_methods_supported: ['S256'],
      id_token_signing_alg_values_supported: ['ES256'],
    }),
  )

  app.get('/authorize', (c) => {
    const p = check(c.req.query())
    if (typeof p === 'string') return page(c, 'Acme ID: bad request', `<h1>Bad request</h1><p>${escape(p)}</p>`, 400)
    const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escape(value)}">`
    return page(
      c,
      'Log in with Acme ID',
      `<h1>Log in</h1><p><strong>${escape(p.client.name)}</strong> wants to know your Acme ID username.</p>
<form method="post" action="/authorize">
${hidden('response_type', 'code')}${hidden('client_id', p.clientId)}${hidden('redirect_uri', p.redirectUri)}${hidden('state', p.state)}${hidden('code_challenge', p.challenge)}${hidden('code_challenge_method', 'S256')}
<label>Username<input name="username" required autocomplete="username" pattern="[a-z0-9][a-z0-9._\\-]{0,31}" maxlength="32"></label>
<div class="row"><button name="decision" value="deny" formnovalidate>Deny</button><button name="decision" value="allow">Allow</button></div>
</form>`,
    )
  })

  // The consent form may only be posted from this server's own page.
  app.post('/authorize', csrf({ origin: issuer }), async (c) => {
    const form = Object.fromEntries(Object.entries(await c.req.parseBody()).map(([k, v]) => [k, typeof v === 'string' ? v : undefined]))
    const p = check(form)
    if (typeof p === 'string') return page(c, 'Acme ID: bad request', `<h1>Bad request</h1><p>${escape(p)}</p>`, 400)
    if (form.decision !== 'allow') return handBack(c, p, { error: 'access_denied' })
    const username = (form.username ?? '').trim().toLowerCase()
    if (!USERNAME.test(username)) {
      return page(c, 'Acme ID: bad request', '<h1>Bad request</h1><p>Usernames are 1 to 32 lower-case letters, digits, dots, dashes or underscores.</p>', 400)
    }
    const code = randomBytes(32).toString('base64url')
    codes.set(code, { clientId: p.clientId, redirectUri: p.redirectUri, challenge: p.challenge, sub: username, expires: now() + codeTtlMs })
    return handBack(c, p, { code })
  })

  // The app's page calls /token from the browser: CORS for registered origins only.
  const registered = (o: string) => Object.values(options.clients).some((c) => c.origins.includes(o))
  app.use('/token', cors({ origin: (o) => (registered(o) ? o : null), allowMethods: ['POST'], maxAge: 600 }))
  app.post('/token', async (c) => {
    const type = c.req.header('content-type') ?? ''
    const raw = type.includes('application/json') ? await c.req.json().catch(() => ({})) : await c.req.parseBody()
    const b = raw as Record<string, unknown>
    const str = (k: string) => (typeof b[k] === 'string' ? (b[k] as string) : '')
    const fail = (error: string, description: string) =>
      c.json({ error, error_description: description }, 400, { 'Cache-Control': 'no-store' })

    if (str('grant_type') !== 'authorization_code') return fail('unsupported_grant_type', "grant_type must be 'authorization_code'.")
    const pending = codes.get(str('code'))
    codes.delete(str('code')) // single use, whatever happens next
    if (!pending || pending.expires < now()) return fail('invalid_grant', 'The code is unknown, used or expired.')
    if (pending.clientId !== str('client_id')) return fail('invalid_grant', 'The code was issued to another client.')
    if (pending.redirectUri !== str('redirect_uri')) return fail('invalid_grant', 'redirect_uri does not match the authorization request.')
    const verifier = str('code_verifier')
    if (!VERIFIER.test(verifier)) return fail('invalid_request', 'code_verifier is missing or malformed (43 to 128 characters).')
    if (!sameText(s256(verifier), pending.challenge)) return fail('invalid_grant', 'PKCE verification failed.')

    const t = Math.floor(now() / 1000)
    const idToken = await new SignJWT({ preferred_username: pending.sub })
      .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
      .setIssuer(issuer)
      .setSubject(pending.sub)
      .setAudience(pending.clientId)
      .setIssuedAt(t)
      .setExpirationTime(t + tokenTtlS)
      .sign(privateKey)
    return c.json({ id_token: idToken, token_type: 'Bearer', expires_in: tokenTtlS }, 200, { 'Cache-Control': 'no-store' })
  })

  return { app, publicJwk }
}
