import { Hono } from 'hono'
import { exportJWK, generateKeyPair } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { AppSettings } from '../config'
import type { Env, ServerCtx } from './context'
import { ApiError } from './errors'
import { loadSigner, signAccessToken, type Signer } from './identity/tokens'
import { OpenApi } from './openapi'
import { router } from './router'

const APP = { id: 'portico-router-test-app01' } as AppSettings
let signer: Signer
let alive = true
let ran: string[] = []

beforeAll(async () => {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true })
  signer = await loadSigner({} as never, {} as never, JSON.stringify(await exportJWK(privateKey)))
})

/** A feature with one route of each kind, mounted as app.ts mounts features (its app-id middleware and error answer). */
function server() {
  ran = []
  const ctx = {
    openapi: new OpenApi(),
    signer,
    // sessionAlive reads one row for a live session.
    store: { query: async () => (alive ? [{ ok: 1 }] : []) },
  } as unknown as ServerCtx
  const r = router(ctx)
  const body = z.object({ name: z.string() })
  r.post('/open', { summary: 'anyone', body }, (c, { body: b, auth }) => {
    ran.push('open')
    return c.json({ name: b.name, auth: auth ?? null })
  })
  r.post('/mine', { summary: 'a user', body, auth: 'bearer' }, (c, { auth }) => {
    ran.push('mine')
    return c.json({ user: auth.userId, session: auth.sessionId })
  })
  r.post('/link', { summary: 'a user linking', auth: 'link' }, (c, { auth }) => {
    ran.push('link')
    return c.json({ user: auth.userId })
  })
  r.post(
    '/guarded',
    {
      summary: 'a guard of its own',
      body,
      guard: async (_c, b) => {
        if (b.name !== 'device') throw new ApiError(403, 'forbidden', 'not a device')
        return { device: b.name }
      },
    },
    (c, { auth }) => {
      ran.push('guarded')
      return c.json(auth)
    },
  )
  r.get('/me', { summary: 'a user (GET)', auth: 'bearer', query: { page: 'which page' } }, (c, { auth }) => c.json({ user: auth.userId }))
  const app = new Hono<Env>()
  app.use('*', async (c, next) => {
    c.set('app', APP)
    await next()
  })
  app.onError((err, c) => (err instanceof ApiError ? c.json(err.toWire(), err.status) : c.json({ code: 'internal_error' }, 500)))
  app.route('/', r.app)
  return { app, ctx }
}

const call = async (app: Hono<Env>, path: string, init: { body?: unknown; token?: string; method?: string } = {}) => {
  const res = await app.request(path, {
    method: init.method ?? 'POST',
    headers: { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    body: init.method === 'GET' ? undefined : JSON.stringify(init.body ?? {}),
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

describe('router: the declaration is the check', () => {
  it('a bearer route does not run without a valid token (missing, forged, revoked session)', async () => {
    const { app } = server()
    expect((await call(app, '/mine', { body: { name: 'x' } })).body.code).toBe('missing_or_invalid_token')
    expect((await call(app, '/mine', { body: { name: 'x' }, token: 'x.y.z' })).status).toBe(401)
    const token = await signAccessToken(signer, { userId: 'did:portico:u1', appId: APP.id, sessionId: 's1' })
    alive = false
    expect((await call(app, '/mine', { body: { name: 'x' }, token })).status).toBe(401)
    alive = true
    expect(ran).toEqual([])
    const ok = await call(app, '/mine', { body: { name: 'x' }, token })
    expect(ok).toEqual({ status: 200, body: { user: 'did:portico:u1', session: 's1' } })
    expect(ran).toEqual(['mine'])
    expect((await call(app, '/me', { method: 'GET', token })).body).toEqual({ user: 'did:portico:u1' })
    expect((await call(app, '/me', { method: 'GET' })).status).toBe(401)
  })

  it('a token for another app is refused', async () => {
    const { app } = server()
    const token = await signAccessToken(signer, { userId: 'did:portico:u1', appId: 'portico-another-app-000001', sessionId: 's1' })
    expect((await call(app, '/mine', { body: { name: 'x' }, token })).status).toBe(401)
    expect(ran).toEqual([])
  })

  it('a link route answers must_be_authenticated without a token', async () => {
    const { app } = server()
    const r = await call(app, '/link')
    expect([r.status, r.body.code]).toEqual([401, 'must_be_authenticated'])
    expect(ran).toEqual([])
  })

  it('the body is validated first (422 whoever calls), then the caller', async () => {
    const { app } = server()
    const r = await call(app, '/mine', { body: { name: 3 } })
    expect([r.status, r.body.code]).toEqual([422, 'invalid_data'])
  })

  it('a guard sees the validated body and its result is the handler’s auth', async () => {
    const { app } = server()
    expect((await call(app, '/guarded', { body: { name: 'phone' } })).status).toBe(403)
    expect(ran).toEqual([])
    expect((await call(app, '/guarded', { body: { name: 'device' } })).body).toEqual({ device: 'device' })
  })

  it('an open route runs without a caller', async () => {
    const { app } = server()
    expect((await call(app, '/open', { body: { name: 'n' } })).body).toEqual({ name: 'n', auth: null })
  })

  it('the OpenAPI document says who may call each route', () => {
    const { ctx } = server()
    const doc = ctx.openapi.document('test') as { paths: Record<string, Record<string, { security?: unknown }>> }
    expect(doc.paths['/api/v1/open'].post.security).toBeUndefined()
    expect(doc.paths['/api/v1/mine'].post.security).toEqual([{ bearer: [] }])
    expect(doc.paths['/api/v1/link'].post.security).toEqual([{ bearer: [] }])
    expect(doc.paths['/api/v1/guarded'].post.security).toEqual([{ bearer: [] }])
    expect(doc.paths['/api/v1/me'].get.security).toEqual([{ bearer: [] }])
    const me = (doc.paths['/api/v1/me'].get as { parameters: { name: string; in: string }[] }).parameters
    expect(me.filter((p) => p.in === 'query')).toEqual([expect.objectContaining({ name: 'page', in: 'query', description: 'which page' })])
  })
})
