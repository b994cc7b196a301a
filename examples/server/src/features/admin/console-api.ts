/**
 * Admin routes the console needs (issue 32): an app's webhook endpoints (list, create with the
 * secret shown once, change, delete), their deliveries and a delivery's attempts, replay; and
 * stats (sign-ups and logins per UTC day by method). Declared through the admin API's `route`
 * (routes.ts), so each is role-checked and in the OpenAPI document like every admin route:
 * reads need apps:read (a viewer may), changes apps:write (a viewer is refused, 403).
 */
import { z } from 'zod'
import type { C, ServerCtx } from '../../core/context'
import { now } from '../../core/identity/tokens'
import * as webhooks from '../webhooks/service'
import type { Admin, Scope } from './auth'
import { adminErrors } from './errors'
import * as repo from './repo'

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete'
type Route = <S extends z.ZodObject | undefined = undefined>(
  method: Method,
  path: string,
  decl: { summary: string; scope: Scope; body?: S; query?: Record<string, string> },
  handler: (c: C, input: { admin: Admin; body: S extends z.ZodObject ? z.infer<S> : undefined }) => Response | Promise<Response>,
) => void

const STATES = ['pending', 'delivered', 'failed'] as const

export function consoleApiRoutes(ctx: ServerCtx, route: Route, appId: (c: C) => string, limitOf: (c: C, d?: number, max?: number) => number) {
  const d = { store: ctx.store, keys: ctx.keys }
  /** The app must exist (live or in the database) for its webhooks to be managed. */
  const liveApp = (c: C) => {
    const id = appId(c)
    if (!ctx.apps.get(id)) throw adminErrors.notFound('No app with this id.')
    return id
  }
  const audit = (admin: Admin, action: string, app: string, target: string, after?: unknown) =>
    repo.insertAudit(ctx.store, { actor: admin.actor, action, appId: app, target, after, t: now() })

  // ------------------------------------------------------------ who calls (the console shows or hides changes by it)
  route('get', '/me', { summary: 'The caller: actor, role (operators) and scopes', scope: 'apps:read' }, (c, { admin }) =>
    c.json({ actor: admin.actor, role: admin.role, scopes: admin.scopes }),
  )

  // ------------------------------------------------------------ webhooks
  const endpointBody = z.looseObject({})
  route('get', '/apps/:appId/webhooks', { summary: 'Webhook endpoints of the app (never their secrets)', scope: 'apps:read' }, async (c) =>
    c.json({ endpoints: await webhooks.listEndpoints(d, liveApp(c)), events: webhooks.WEBHOOK_EVENTS }),
  )
  route(
    'post',
    '/apps/:appId/webhooks',
    { summary: 'Add a webhook endpoint ({ url, events }): its signing secret is answered once', scope: 'apps:write', body: endpointBody },
    async (c, { admin, body }) => {
      const id = liveApp(c)
      const r = await webhooks.createEndpoint(d, id, { url: body.url, events: body.events })
      await audit(admin, 'webhook.created', id, r.endpoint.id, { url: r.endpoint.url, events: r.endpoint.events })
      return c.json(r, 201)
    },
  )
  route(
    'patch',
    '/apps/:appId/webhooks/:endpointId',
    { summary: 'Change a webhook endpoint (url, events, enabled); apps.json’s endpoints are changed in the file', scope: 'apps:write', body: endpointBody },
    async (c, { admin, body }) => {
      const id = liveApp(c)
      const r = await webhooks.updateEndpoint(d, id, c.req.param('endpointId') ?? '', { url: body.url, events: body.events, enabled: body.enabled })
      await audit(admin, 'webhook.updated', id, r.id, { url: r.url, events: r.events, enabled: r.enabled })
      return c.json({ endpoint: r })
    },
  )
  route('delete', '/apps/:appId/webhooks/:endpointId', { summary: 'Delete a webhook endpoint, its deliveries and their log', scope: 'apps:write' }, async (c, { admin }) => {
    const id = liveApp(c)
    const ep = c.req.param('endpointId') ?? ''
    await webhooks.deleteEndpoint(d, id, ep)
    await audit(admin, 'webhook.deleted', id, ep)
    return c.json({ deleted: true })
  })
  route(
    'get',
    '/apps/:appId/webhooks/deliveries',
    { summary: 'Webhook deliveries of the app, newest first', scope: 'apps:read', query: { endpoint_id: 'Only this endpoint’s', state: 'pending, delivered or failed', limit: '1-200, default 50' } },
    async (c) => {
      const id = liveApp(c)
      const state = c.req.query('state')
      if (state !== undefined && !(STATES as readonly string[]).includes(state)) throw adminErrors.invalid({ state: 'Expected pending, delivered or failed' })
      const deliveries = await webhooks.listDeliveries(d, id, { endpointId: c.req.query('endpoint_id') || undefined, state: state as (typeof STATES)[number] | undefined, limit: limitOf(c) })
      return c.json({ deliveries })
    },
  )
  route('get', '/apps/:appId/webhooks/deliveries/:deliveryId', { summary: 'A delivery’s attempts: status (or error) and duration of each', scope: 'apps:read' }, async (c) =>
    c.json({ attempts: await webhooks.deliveryAttempts(d, liveApp(c), c.req.param('deliveryId') ?? '') }),
  )
  route(
    'post',
    '/apps/:appId/webhooks/deliveries/:deliveryId/replay',
    { summary: 'Send a delivery again now, with the same message id', scope: 'apps:write' },
    async (c, { admin }) => {
      const id = liveApp(c)
      const del = c.req.param('deliveryId') ?? ''
      await webhooks.replayDelivery(d, id, del)
      await audit(admin, 'webhook.replayed', id, del)
      return c.json({ replayed: true })
    },
  )

  // ------------------------------------------------------------ stats
  route(
    'get',
    '/apps/:appId/stats',
    { summary: 'Sign-ups and logins per UTC day by method over the last N days (days: 1-90, default 30)', scope: 'apps:read', query: { days: '1-90, default 30' } },
    async (c) => {
      const id = liveApp(c)
      const v = c.req.query('days')
      const days = v === undefined ? 30 : Number(v)
      if (!Number.isInteger(days) || days < 1 || days > 90) throw adminErrors.invalid({ days: 'Expected an integer from 1 to 90' })
      // The first of the N days (today included), at 00:00 UTC.
      const from = (Math.floor(now() / 86400) - (days - 1)) * 86400
      const [signups, logins] = await Promise.all([repo.signupsPerDay(ctx.store, id, from), repo.loginsPerDay(ctx.store, id, from)])
      return c.json({ days, from, signups, logins })
    },
  )
}
