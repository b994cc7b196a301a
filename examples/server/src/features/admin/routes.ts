/**
 * The admin API under /admin/v1 (issue 32): apps, app secrets, API keys, operators, users.
 * Every route declares the scope it needs (`scope`); the check (auth.ts `requireAdmin`) runs
 * before the body is read and before the handler, which receives the caller. The routes are
 * documented in the server's OpenAPI document (core/openapi.ts) as they are declared.
 */
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { z } from 'zod'
import type { C, Env, ServerCtx } from '../../core/context'
import { errors } from '../../core/errors'
import { body as readBody } from '../../core/validate'
import type { LiveApps } from './apps'
import { adminAuth, KEY_SCOPES, type Admin, type Scope } from './auth'
import { consoleApiRoutes } from './console-api'
import { adminErrors } from './errors'
import { IMPORT_MAX, appsService, importsService, keysService, operatorsService, usersService } from './service'

export interface AdminOptions {
  /** The live registry when apps are kept in the database (null: the server's options hold them). */
  apps: LiveApps | null
  /** PORTICO_ADMIN_API_KEY: a bootstrap key for automation (hashed at start). */
  envKey?: string
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete'

export function adminRoutes(ctx: ServerCtx, opts: AdminOptions) {
  const app = new Hono<Env>()
  const requireAdmin = adminAuth(ctx, { envKey: opts.envKey })
  const apps = appsService(ctx, opts.apps)
  const keys = keysService(ctx)
  const operators = operatorsService(ctx)
  const users = usersService(ctx)
  const imports = importsService(ctx)
  // Jobs a dead process left behind: looked for once, as the server is built (not awaited).
  void imports.resumeStale().catch(() => {})

  const small = bodyLimit({ maxSize: 256 * 1024, onError: (c) => c.json(errors.invalidData('Request body is larger than 256 KB').toWire(), 413) })
  const large = bodyLimit({ maxSize: 16 * 1024 * 1024, onError: (c) => c.json(errors.invalidData('Request body is larger than 16 MB').toWire(), 413) })

  function route<S extends z.ZodObject | undefined = undefined>(
    method: Method,
    path: string,
    decl: { summary: string; scope: Scope; body?: S; query?: Record<string, string>; large?: boolean },
    handler: (c: C, input: { admin: Admin; body: S extends z.ZodObject ? z.infer<S> : undefined }) => Response | Promise<Response>,
  ) {
    ctx.openapi.add({ method, path, base: '/admin/v1', summary: `${decl.summary} (scope ${decl.scope === 'operators' ? 'owner' : decl.scope})`, security: 'admin', body: decl.body, query: decl.query })
    const check = requireAdmin(decl.scope)
    app.on(method.toUpperCase(), path, decl.large ? large : small, async (c) => {
      // Who calls first: an unauthenticated caller learns nothing from validation errors.
      const admin = await check(c)
      const body = (decl.body ? await readBody(c, decl.body) : undefined) as S extends z.ZodObject ? z.infer<S> : undefined
      return handler(c, { admin, body })
    })
  }

  const appId = (c: C) => {
    const id = c.req.param('appId') ?? ''
    if (id.length !== 25) throw adminErrors.notFound('No app with this id.')
    return id
  }
  const limitOf = (c: C, d = 50, max = 200) => {
    const v = c.req.query('limit')
    if (v === undefined) return d
    const n = Number(v)
    if (!Number.isInteger(n) || n < 1 || n > max) throw adminErrors.invalid({ limit: `Expected an integer from 1 to ${max}` })
    return n
  }

  // ------------------------------------------------------------ apps
  const appBody = z.looseObject({})
  route('get', '/apps', { summary: 'Every app and its settings (secrets redacted)', scope: 'apps:read' }, async (c) => c.json({ apps: await apps.list() }))
  route('post', '/apps', { summary: 'Create an app (the apps.json shape, validated as at start-up)', scope: 'apps:write', body: appBody }, async (c, { admin, body }) =>
    c.json(await apps.create(admin, body), 201),
  )
  route('get', '/apps/:appId', { summary: 'One app and its settings (secrets redacted)', scope: 'apps:read' }, async (c) => c.json(await apps.get(appId(c))))
  route('patch', '/apps/:appId', { summary: 'Change an app (JSON Merge Patch, RFC 7396: null removes a setting)', scope: 'apps:write', body: appBody }, async (c, { admin, body }) =>
    c.json(await apps.update(admin, appId(c), body)),
  )
  route('delete', '/apps/:appId', { summary: 'Delete an app (its users stay in the database)', scope: 'apps:write' }, async (c, { admin }) => {
    await apps.remove(admin, appId(c))
    return c.json({ deleted: true })
  })
  route('post', '/apps/:appId/secret', { summary: 'Rotate the app secret: the new one is answered once, the old one stops working', scope: 'apps:write' }, async (c, { admin }) =>
    c.json(await apps.rotateSecret(admin, appId(c))),
  )
  route('get', '/apps/:appId/audit', { summary: 'Changes to this app and its users, newest first', scope: 'apps:read', query: { limit: '1-200, default 50' } }, async (c) =>
    c.json({ entries: await apps.audit(appId(c), limitOf(c)) }),
  )
  route('get', '/audit', { summary: 'Every admin change, newest first', scope: 'apps:read', query: { limit: '1-200, default 50' } }, async (c) =>
    c.json({ entries: await apps.audit(null, limitOf(c)) }),
  )

  // ------------------------------------------------------------ API keys
  route(
    'post',
    '/api_keys',
    { summary: 'Create an API key: the key is answered once, only its hash is kept', scope: 'keys:write', body: z.object({ name: z.string().min(1).max(100), scopes: z.array(z.enum(KEY_SCOPES)).min(1) }) },
    async (c, { admin, body }) => c.json(await keys.create(admin, body.name, body.scopes), 201),
  )
  route('get', '/api_keys', { summary: 'API keys (never the keys themselves)', scope: 'keys:read' }, async (c) => c.json({ api_keys: await keys.list() }))
  route('delete', '/api_keys/:keyId', { summary: 'Revoke an API key', scope: 'keys:write' }, async (c, { admin }) => {
    await keys.revoke(admin, c.req.param('keyId') ?? '')
    return c.json({ revoked: true })
  })

  // ------------------------------------------------------------ operators (owner only)
  const email = z
    .string()
    .max(254)
    .transform((s) => s.trim().toLowerCase())
    .pipe(z.email({ message: 'Invalid email address' }))
  route('get', '/operators', { summary: 'Operators and their roles', scope: 'operators' }, async (c) => c.json({ operators: await operators.list() }))
  route(
    'post',
    '/operators',
    { summary: 'Add an operator (or change their role) by the e-mail they sign in to the console with', scope: 'operators', body: z.object({ email, role: z.enum(['owner', 'admin', 'viewer']) }) },
    async (c, { admin, body }) => c.json(await operators.put(admin, body.email, body.role)),
  )
  route('delete', '/operators/:email', { summary: 'Remove an operator (not the last owner)', scope: 'operators' }, async (c, { admin }) => {
    await operators.remove(admin, (c.req.param('email') ?? '').trim().toLowerCase())
    return c.json({ removed: true })
  })

  // ------------------------------------------------------------ users of an app
  route(
    'get',
    '/apps/:appId/users',
    { summary: 'Find users: by id, e-mail, phone number, wallet address or linked account subject (q); or list them, newest first', scope: 'users:read', query: { q: 'Search term', limit: '1-200, default 50', cursor: 'next_cursor of the previous page' } },
    async (c) => c.json(await users.search(appId(c), c.req.query('q'), limitOf(c), c.req.query('cursor'))),
  )
  route('get', '/apps/:appId/users/export', { summary: 'Every user of the app, streamed: JSON Lines (format=jsonl, default) or CSV (format=csv)', scope: 'users:read', query: { format: 'jsonl or csv' } }, async (c) => {
    const format = c.req.query('format') ?? 'jsonl'
    if (format !== 'jsonl' && format !== 'csv') throw adminErrors.invalid({ format: "Expected 'jsonl' or 'csv'" })
    const id = appId(c)
    return new Response(users.exportStream(id, format), {
      headers: {
        'content-type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
        'content-disposition': `attachment; filename="users-${id}.${format}"`,
        'cache-control': 'no-store',
      },
    })
  })
  route(
    'post',
    '/apps/:appId/users/import',
    {
      summary: `Import users (at most ${IMPORT_MAX}) with their linked accounts, in batches; the same idempotency_key answers the same job`,
      scope: 'users:write',
      large: true,
      body: z.object({ idempotency_key: z.string().min(1).max(200), users: z.array(z.unknown()).min(1).max(IMPORT_MAX) }),
    },
    async (c, { admin, body }) => {
      const id = appId(c)
      if (!ctx.apps.get(id)) throw adminErrors.notFound('No app with this id.')
      const r = await imports.start(admin, id, body.idempotency_key, body.users)
      return c.json(r.job, r.inserted ? 202 : 200)
    },
  )
  route('get', '/apps/:appId/users/imports/:importId', { summary: 'An import’s progress (processed, created, existing, failed, errors)', scope: 'users:read' }, async (c) =>
    c.json(await imports.get(appId(c), c.req.param('importId') ?? '')),
  )
  route('get', '/apps/:appId/users/:userId', { summary: 'A user: linked accounts, wallets, MFA methods, sessions, devices, delegations', scope: 'users:read' }, async (c) =>
    c.json(await users.view(appId(c), c.req.param('userId') ?? '')),
  )
  route('post', '/apps/:appId/users/:userId/sessions/revoke', { summary: 'End every session of the user (their next request is 401)', scope: 'users:write' }, async (c, { admin }) =>
    c.json(await users.revokeSessions(admin, appId(c), c.req.param('userId') ?? '')),
  )
  route('delete', '/apps/:appId/users/:userId', { summary: 'Delete the user (accounts, sessions, wallets’ shares, devices, delegations, MFA)', scope: 'users:write' }, async (c, { admin }) => {
    await users.remove(admin, appId(c), c.req.param('userId') ?? '')
    return c.json({ deleted: true })
  })

  // ------------------------------------------------------------ webhooks and stats (console-api.ts)
  consoleApiRoutes(ctx, route, appId, limitOf)

  return app
}
