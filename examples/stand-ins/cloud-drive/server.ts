/**
 * Local stand-in of the two cloud drives the wallet's recovery share can be backed up to
 * (issue 14; spec part 2 'Cloud-backup OAuth recovery'). The network is closed, so tests and
 * the offline demo use this server instead of Google and Apple. It follows their documented
 * requests and responses, under `/google/<real path>` and `/icloud/<real path>`:
 *
 * Google (OAuth 2.0 for web server apps + Drive API v3, `appDataFolder` space):
 * - GET  /google/o/oauth2/v2/auth: client_id, redirect_uri, response_type=code, scope (must
 *   name https://www.googleapis.com/auth/drive.appdata or drive.file), state,
 *   code_challenge + code_challenge_method=S256 (required here). A consent page, labelled as
 *   a stand-in, with Allow / Deny (a form, no script); Allow → 302 redirect_uri?code&state,
 *   Deny → ?error=access_denied&state.
 * - POST /google/token (oauth2.googleapis.com/token): form grant_type=authorization_code, code,
 *   redirect_uri, client_id, client_secret, code_verifier → {access_token, expires_in,
 *   token_type: 'Bearer', scope}; errors {error, error_description} (invalid_grant, invalid_client).
 * - POST /google/upload/drive/v3/files?uploadType=multipart (multipart/related: JSON metadata
 *   {name, parents: ['appDataFolder'], mimeType} then the media) → the file resource.
 * - GET  /google/drive/v3/files?spaces=appDataFolder&q=name = '…'&fields=… → {kind, files}.
 * - GET  /google/drive/v3/files/{fileId}?alt=media → the content; without alt → metadata.
 * - DELETE /google/drive/v3/files/{fileId} → 204.
 *   Bearer token required; Google's error body {error: {code, message, status, errors}}.
 *
 * Apple (CloudKit Web Services, private database):
 * - GET  /icloud/database/1/{container}/{environment}/private/users/current?ckAPIToken=…
 *   [&ckWebAuthToken=…] → 421 {uuid, serverErrorCode: 'AUTHENTICATION_REQUIRED', reason,
 *   redirectURL} without a valid web auth token, else {userRecordName}.
 * - GET  /icloud/signin?container&token: the sign-in page the redirectURL opens; Allow → 302 to
 *   the container's sign-in callback with ckWebAuthToken (and ckSession) in the query.
 * - POST /icloud/database/1/{container}/{environment}/private/records/modify {operations:
 *   [{operationType: 'forceReplace'|'create'|'forceDelete', record: {recordName, recordType,
 *   fields: {name: {value}}}}]} → {records}.
 * - POST …/private/records/lookup {records: [{recordName}]} → {records} (a missing one carries
 *   serverErrorCode NOT_FOUND).
 *
 * Demo and tests only: everything is in memory. CORS is open (both providers answer browser
 * calls with a bearer or an API token). `control` lets tests make a call fail.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { Hono, type Context } from 'hono'
import { cors } from 'hono/cors'

export const DRIVE_SCOPES = ['https://www.googleapis.com/auth/drive.appdata', 'https://www.googleapis.com/auth/drive.file']
export const LOCAL_GOOGLE_CLIENT = { clientId: 'portico-local-google-drive', clientSecret: 'local-stand-in-secret' }
export const LOCAL_CLOUDKIT = { container: 'iCloud.dev.portico.recovery', apiToken: 'local-stand-in-cloudkit-api-token', environment: 'development' }

export interface CloudDriveOptions {
  /** This server's origin, e.g. http://127.0.0.1:8793. */
  origin: string
  google?: { clientId: string; clientSecret: string }
  cloudkit?: { container: string; apiToken: string; environment?: string; signInCallback?: string }
  codeTtlMs?: number
  tokenTtlS?: number
  now?: () => number
}

export interface CloudDriveControl {
  /** Answer Drive / CloudKit data calls with this status instead (e.g. 503). */
  dataStatus: number | null
  /** Answer the token endpoint with this status instead. */
  tokenStatus: number | null
}

interface DriveFile {
  id: string
  name: string
  mimeType: string
  owner: string
  content: string
  createdTime: string
  modifiedTime: string
}

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/
const USER = /^[a-z0-9][a-z0-9-]{0,31}$/

export function createCloudDrive(opts: CloudDriveOptions) {
  const origin = opts.origin.replace(/\/+$/, '')
  const now = opts.now ?? Date.now
  const google = opts.google ?? LOCAL_GOOGLE_CLIENT
  const ck = { ...LOCAL_CLOUDKIT, ...opts.cloudkit }
  const codeTtl = opts.codeTtlMs ?? 60_000
  const tokenTtl = opts.tokenTtlS ?? 3599
  const codes = new Map<string, { clientId: string; redirectUri: string; challenge: string; user: string; scope: string; expires: number; used: boolean }>()
  const tokens = new Map<string, { user: string; scope: string; expires: number }>()
  const files = new Map<string, DriveFile>()
  const ckTokens = new Map<string, { user: string; expires: number }>()
  const ckRecords = new Map<string, Record<string, unknown>>()
  const control: CloudDriveControl = { dataStatus: null, tokenStatus: null }
  const random = (n = 32) => randomBytes(n).toString('base64url')
  const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
  const same = (a: string | undefined, b: string) => a !== undefined && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

  const app = new Hono()
  app.use('/google/drive/*', cors({ origin: '*', allowHeaders: ['authorization', 'content-type'], allowMethods: ['GET', 'POST', 'PATCH', 'DELETE'] }))
  app.use('/google/upload/*', cors({ origin: '*', allowHeaders: ['authorization', 'content-type'], allowMethods: ['POST', 'PATCH'] }))
  app.use('/icloud/database/*', cors({ origin: '*', allowHeaders: ['content-type'], allowMethods: ['GET', 'POST'] }))

  const page = (c: Context, title: string, body: string, status: 200 | 400 = 200) => {
    c.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action *; frame-ancestors 'none'")
    c.header('cache-control', 'no-store')
    return c.html(
      `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${esc(title)}</title>` +
        `<style>body{font:15px system-ui;max-width:420px;margin:40px auto;padding:0 16px}button{font:inherit;padding:8px 16px;margin-right:8px}.note{color:#666;font-size:13px}</style>` +
        `<body><p class="note">Local stand-in: no real ${title.includes('iCloud') ? 'Apple' : 'Google'} account is used.</p>${body}</body></html>`,
      status,
    )
  }
  const googleError = (c: Context, code: 400 | 401 | 403 | 404 | 503, message: string, status: string, reason: string) =>
    c.json({ error: { code, message, status, errors: [{ message, domain: 'global', reason }] } }, code)

  // ------------------------------------------------------------------ Google OAuth 2.0

  const authorizeCheck = (q: URLSearchParams): string | null => {
    if (q.get('response_type') !== 'code') return 'unsupported_response_type'
    if (q.get('client_id') !== google.clientId) return 'invalid_client: The OAuth client was not found.'
    const redirect = q.get('redirect_uri') ?? ''
    try {
      new URL(redirect)
    } catch {
      return 'redirect_uri_mismatch'
    }
    const scopes = (q.get('scope') ?? '').split(' ').filter(Boolean)
    if (!scopes.some((s) => DRIVE_SCOPES.includes(s))) return 'invalid_scope: a Drive scope is required'
    if (q.get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(q.get('code_challenge') ?? '')) return 'invalid_request: code_challenge (S256) required'
    return null
  }

  app.get('/google/o/oauth2/v2/auth', (c) => {
    const q = new URL(c.req.url).searchParams
    const bad = authorizeCheck(q)
    if (bad) return page(c, 'Google sign-in', `<h1>Error 400</h1><p>${esc(bad)}</p>`, 400)
    const hidden = [...q.entries()].map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`).join('')
    return page(
      c,
      'Google sign-in',
      `<h1>Google Drive</h1><form method="post">${hidden}<p><label>Test user <input name="login_hint" value="${esc(q.get('login_hint') ?? 'alice')}"></label></p>` +
        `<p>Allow this app to see, create and delete its own configuration data in your Google Drive?</p>` +
        `<button name="decision" value="allow" type="submit">Allow</button><button name="decision" value="deny" type="submit">Deny</button></form>`,
    )
  })

  app.post('/google/o/oauth2/v2/auth', async (c) => {
    const q = new URLSearchParams(await c.req.text())
    const bad = authorizeCheck(q)
    if (bad) return page(c, 'Google sign-in', `<h1>Error 400</h1><p>${esc(bad)}</p>`, 400)
    const back = new URL(q.get('redirect_uri')!)
    const state = q.get('state')
    if (state) back.searchParams.set('state', state)
    if (q.get('decision') !== 'allow') {
      back.searchParams.set('error', 'access_denied')
      return c.redirect(back.href, 302)
    }
    const user = (q.get('login_hint') ?? 'alice').trim().toLowerCase()
    const code = `4/${random()}`
    codes.set(code, {
      clientId: google.clientId,
      redirectUri: q.get('redirect_uri')!,
      challenge: q.get('code_challenge')!,
      user: USER.test(user) ? user : 'alice',
      scope: (q.get('scope') ?? '').split(' ').filter((s) => DRIVE_SCOPES.includes(s)).join(' '),
      expires: now() + codeTtl,
      used: false,
    })
    back.searchParams.set('code', code)
    back.searchParams.set('scope', codes.get(code)!.scope)
    return c.redirect(back.href, 302)
  })

  app.post('/google/token', async (c) => {
    if (control.tokenStatus) return c.json({ error: 'internal_failure' }, control.tokenStatus as 500)
    const type = c.req.header('content-type') ?? ''
    if (!type.startsWith('application/x-www-form-urlencoded')) return c.json({ error: 'invalid_request', error_description: 'Form body required' }, 400)
    const f = new URLSearchParams(await c.req.text())
    let id = f.get('client_id') ?? undefined
    let secret = f.get('client_secret') ?? undefined
    const basic = c.req.header('authorization')
    if (basic?.startsWith('Basic ')) {
      const [u, p] = Buffer.from(basic.slice(6), 'base64').toString().split(':')
      id = decodeURIComponent(u ?? '')
      secret = decodeURIComponent(p ?? '')
    }
    if (id !== google.clientId || !same(secret, google.clientSecret)) return c.json({ error: 'invalid_client', error_description: 'The OAuth client was not found.' }, 401)
    if (f.get('grant_type') !== 'authorization_code') return c.json({ error: 'unsupported_grant_type', error_description: 'Invalid grant_type' }, 400)
    const rec = codes.get(f.get('code') ?? '')
    if (!rec || rec.used || rec.expires < now() || rec.redirectUri !== f.get('redirect_uri')) {
      return c.json({ error: 'invalid_grant', error_description: 'Bad Request' }, 400)
    }
    rec.used = true
    const verifier = f.get('code_verifier') ?? ''
    if (!VERIFIER.test(verifier) || createHash('sha256').update(verifier).digest('base64url') !== rec.challenge) {
      return c.json({ error: 'invalid_grant', error_description: 'Invalid code verifier.' }, 400)
    }
    const token = `ya29.${random()}`
    tokens.set(token, { user: rec.user, scope: rec.scope, expires: now() + tokenTtl * 1000 })
    return c.json({ access_token: token, expires_in: tokenTtl, scope: rec.scope, token_type: 'Bearer' })
  })

  // ------------------------------------------------------------------ Google Drive v3

  const driveUser = (c: Context): string | Response => {
    const h = c.req.header('authorization') ?? ''
    const t = h.startsWith('Bearer ') ? tokens.get(h.slice(7).trim()) : undefined
    if (!t || t.expires < now()) {
      return googleError(c, 401, 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.', 'UNAUTHENTICATED', 'authError')
    }
    if (control.dataStatus) return googleError(c, control.dataStatus as 503, 'The service is currently unavailable.', 'UNAVAILABLE', 'backendError')
    return t.user
  }
  const resource = (f: DriveFile) => ({ kind: 'drive#file', id: f.id, name: f.name, mimeType: f.mimeType, createdTime: f.createdTime, modifiedTime: f.modifiedTime, parents: ['appDataFolder'], size: String(Buffer.byteLength(f.content)) })

  app.post('/google/upload/drive/v3/files', async (c) => {
    const user = driveUser(c)
    if (typeof user !== 'string') return user
    if (new URL(c.req.url).searchParams.get('uploadType') !== 'multipart') return googleError(c, 400, 'Invalid uploadType', 'INVALID_ARGUMENT', 'invalidParameter')
    const type = c.req.header('content-type') ?? ''
    const boundary = /boundary="?([^";]+)"?/.exec(type)?.[1]
    if (!type.startsWith('multipart/related') || !boundary) return googleError(c, 400, 'Bad content type. Please use multipart.', 'INVALID_ARGUMENT', 'badContent')
    const raw = await c.req.text()
    if (raw.length > 1024 * 1024) return googleError(c, 400, 'Media too large', 'INVALID_ARGUMENT', 'badContent')
    const parts = raw.split(`--${boundary}`).slice(1, -1).map((p) => {
      const i = p.indexOf('\r\n\r\n')
      return { head: p.slice(0, i), body: p.slice(i + 4).replace(/\r\n$/, '') }
    })
    if (parts.length !== 2) return googleError(c, 400, 'Multipart body must have metadata and media parts', 'INVALID_ARGUMENT', 'badContent')
    let meta: { name?: unknown; parents?: unknown; mimeType?: unknown }
    try {
      meta = JSON.parse(parts[0].body)
    } catch {
      return googleError(c, 400, 'Invalid JSON payload received.', 'INVALID_ARGUMENT', 'parseError')
    }
    if (!Array.isArray(meta.parents) || meta.parents[0] !== 'appDataFolder' || typeof meta.name !== 'string' || !meta.name) {
      return googleError(c, 403, 'The granted scopes do not give access to all of the requested spaces.', 'PERMISSION_DENIED', 'insufficientScopes')
    }
    const t = new Date(now()).toISOString()
    const f: DriveFile = { id: random(24), name: meta.name, mimeType: typeof meta.mimeType === 'string' ? meta.mimeType : 'application/octet-stream', owner: user, content: parts[1].body, createdTime: t, modifiedTime: t }
    files.set(f.id, f)
    return c.json(resource(f))
  })

  app.get('/google/drive/v3/files', (c) => {
    const user = driveUser(c)
    if (typeof user !== 'string') return user
    const q = new URL(c.req.url).searchParams
    if (q.get('spaces') !== 'appDataFolder') return googleError(c, 403, 'The granted scopes do not give access to all of the requested spaces.', 'PERMISSION_DENIED', 'insufficientScopes')
    // The query subset the client uses: name = '…' (optionally "and trashed = false").
    const name = /name\s*=\s*'((?:[^'\\]|\\.)*)'/.exec(q.get('q') ?? '')?.[1]?.replace(/\\(.)/g, '$1')
    const list = [...files.values()]
      .filter((f) => f.owner === user && (name === undefined || f.name === name))
      .sort((a, b) => (a.modifiedTime < b.modifiedTime ? 1 : -1))
    return c.json({ kind: 'drive#fileList', incompleteSearch: false, files: list.map(resource) })
  })

  app.get('/google/drive/v3/files/:id', (c) => {
    const user = driveUser(c)
    if (typeof user !== 'string') return user
    const f = files.get(c.req.param('id'))
    if (!f || f.owner !== user) return googleError(c, 404, `File not found: ${c.req.param('id').slice(0, 64)}.`, 'NOT_FOUND', 'notFound')
    if (new URL(c.req.url).searchParams.get('alt') === 'media') return c.body(f.content, 200, { 'content-type': f.mimeType })
    return c.json(resource(f))
  })

  app.delete('/google/drive/v3/files/:id', (c) => {
    const user = driveUser(c)
    if (typeof user !== 'string') return user
    const f = files.get(c.req.param('id'))
    if (!f || f.owner !== user) return googleError(c, 404, `File not found: ${c.req.param('id').slice(0, 64)}.`, 'NOT_FOUND', 'notFound')
    files.delete(f.id)
    return c.body(null, 204)
  })

  // ------------------------------------------------------------------ CloudKit Web Services

  const dbPath = `/icloud/database/1/:container/:environment/private`
  const ckCheck = (c: Context): { user: string } | Response => {
    const q = new URL(c.req.url).searchParams
    if (c.req.param('container') !== ck.container || !same(q.get('ckAPIToken') ?? undefined, ck.apiToken)) {
      return c.json({ uuid: random(8), serverErrorCode: 'AUTHENTICATION_FAILED', reason: 'no auth method found' }, 401)
    }
    const web = q.get('ckWebAuthToken')
    const t = web ? ckTokens.get(web) : undefined
    if (!t || t.expires < now()) {
      const signin = new URL(`${origin}/icloud/signin`)
      signin.searchParams.set('container', ck.container)
      return c.json({ uuid: random(8), serverErrorCode: 'AUTHENTICATION_REQUIRED', reason: 'request needs authorization', redirectURL: signin.href }, 421)
    }
    if (control.dataStatus) return c.json({ uuid: random(8), serverErrorCode: 'SERVICE_UNAVAILABLE', reason: 'service unavailable' }, control.dataStatus as 503)
    return { user: t.user }
  }

  app.get(`${dbPath}/users/current`, (c) => {
    const who = ckCheck(c)
    if (who instanceof Response) return who
    return c.json({ userRecordName: `_${createHash('sha256').update(who.user).digest('hex').slice(0, 32)}` })
  })

  app.get('/icloud/signin', (c) => {
    const q = new URL(c.req.url).searchParams
    if (q.get('container') !== ck.container) return page(c, 'iCloud sign-in', '<h1>Unknown container</h1>', 400)
    return page(
      c,
      'iCloud sign-in',
      `<h1>Sign in with Apple ID</h1><form method="post"><input type="hidden" name="container" value="${esc(ck.container)}">` +
        `<p><label>Test user <input name="login_hint" value="alice"></label></p>` +
        `<button name="decision" value="allow" type="submit">Allow</button><button name="decision" value="deny" type="submit">Deny</button></form>`,
    )
  })

  app.post('/icloud/signin', async (c) => {
    const f = new URLSearchParams(await c.req.text())
    if (f.get('container') !== ck.container || !ck.signInCallback) return page(c, 'iCloud sign-in', '<h1>No sign-in callback configured</h1>', 400)
    const back = new URL(ck.signInCallback)
    if (f.get('decision') !== 'allow') {
      back.searchParams.set('ckError', 'AUTHENTICATION_FAILED')
      return c.redirect(back.href, 302)
    }
    const user = (f.get('login_hint') ?? 'alice').trim().toLowerCase()
    const token = `ck_${random()}`
    ckTokens.set(token, { user: USER.test(user) ? user : 'alice', expires: now() + tokenTtl * 1000 })
    back.searchParams.set('ckWebAuthToken', token)
    back.searchParams.set('ckSession', token)
    return c.redirect(back.href, 302)
  })

  const readJson = async (c: Context): Promise<any> => {
    try {
      return await c.req.json()
    } catch {
      return null
    }
  }
  const recordKey = (user: string, name: string) => `${user}\u0000${name}`

  app.post(`${dbPath}/records/modify`, async (c) => {
    const who = ckCheck(c)
    if (who instanceof Response) return who
    const body = await readJson(c)
    if (!body || !Array.isArray(body.operations)) return c.json({ uuid: random(8), serverErrorCode: 'BAD_REQUEST', reason: 'operations required' }, 400)
    const out = []
    for (const op of body.operations.slice(0, 50)) {
      const rec = op?.record
      const name = typeof rec?.recordName === 'string' ? rec.recordName.slice(0, 255) : ''
      if (!name) {
        out.push({ serverErrorCode: 'BAD_REQUEST', reason: 'recordName required' })
        continue
      }
      const key = recordKey(who.user, name)
      if (op.operationType === 'forceDelete') {
        ckRecords.delete(key)
        out.push({ recordName: name, deleted: true })
      } else if (op.operationType === 'create' && ckRecords.has(key)) {
        out.push({ recordName: name, serverErrorCode: 'CONFLICT', reason: 'record exists' })
      } else if (op.operationType === 'create' || op.operationType === 'forceReplace' || op.operationType === 'forceUpdate') {
        const stored = { recordName: name, recordType: String(rec.recordType ?? 'Record'), fields: rec.fields ?? {}, recordChangeTag: random(6), created: { timestamp: now() }, modified: { timestamp: now() } }
        ckRecords.set(key, stored)
        out.push(stored)
      } else {
        out.push({ recordName: name, serverErrorCode: 'BAD_REQUEST', reason: 'unsupported operationType' })
      }
    }
    return c.json({ records: out })
  })

  app.post(`${dbPath}/records/lookup`, async (c) => {
    const who = ckCheck(c)
    if (who instanceof Response) return who
    const body = await readJson(c)
    if (!body || !Array.isArray(body.records)) return c.json({ uuid: random(8), serverErrorCode: 'BAD_REQUEST', reason: 'records required' }, 400)
    return c.json({
      records: body.records.slice(0, 50).map((r: { recordName?: unknown }) => {
        const name = typeof r?.recordName === 'string' ? r.recordName : ''
        return ckRecords.get(recordKey(who.user, name)) ?? { recordName: name, serverErrorCode: 'NOT_FOUND', reason: 'Record not found' }
      }),
    })
  })

  app.get('/', (c) => c.json({ ok: true, standIn: 'cloud-drive', google: `${origin}/google`, icloud: `${origin}/icloud` }))

  return {
    app,
    control,
    /** Test helpers: what a drive holds (never used by the product). */
    inspect: { files: () => [...files.values()], records: () => [...ckRecords.values()] },
    setSignInCallback(url: string) {
      ck.signInCallback = url
    },
  }
}
