import { z } from 'zod'
import { clientIp, requireAuth, type Api, type ServerCtx } from '../context'
import { hitLimit } from '../codes'
import { errors } from '../errors'
import { loadUser, userResponse } from '../identity'
import { now } from '../tokens'
import { id } from '../validate'
import { requireAppSecret } from './delegation'

/** Analytics payloads above this many bytes (serialised) are refused with 413. */
export const ANALYTICS_PAYLOAD_MAX = 4096

/** The current user, terms acceptance, analytics events. */
export function registerUsers(api: Api, ctx: ServerCtx) {
  const r = ctx.routes
  r.get(api, '/users/me', { summary: 'The current user', auth: 'bearer' }, async (c) => {
    const auth = await requireAuth(c, ctx)
    const user = await loadUser(ctx.store, auth.userId)
    if (!user) throw errors.invalidToken()
    return c.json({ user })
  })

  // The host app's backend (portico/server getUser): Basic base64(appId:appSecret), never from a
  // browser; only users of that app.
  r.get(api, '/users/:userId', { summary: "A user of the app, for the app's backend (Basic app id and app secret)" }, async (c) => {
    const app = await requireAppSecret(c, ctx)
    const userId = c.req.param('userId') ?? ''
    const [row] = userId.length <= 128 ? await ctx.store.query<{ id: string }>('SELECT id FROM users WHERE id = $1 AND app_id = $2', [userId, app.id]) : []
    const user = row ? await loadUser(ctx.store, row.id) : null
    if (!user) throw errors.notFound()
    return c.json({ user })
  })

  r.post(api, '/users/me/accept_terms', { summary: 'Record terms acceptance', auth: 'bearer' }, z.object({}), async (c) => {
    const auth = await requireAuth(c, ctx)
    await ctx.store.query('UPDATE users SET has_accepted_terms = true WHERE id = $1', [auth.userId])
    const user = await loadUser(ctx.store, auth.userId)
    if (!user) throw errors.invalidToken()
    return c.json(await userResponse(ctx, c.get('app').id, user))
  })

  // Unauthenticated: limited per IP (PORTICO_ANALYTICS_PER_IP a minute) and capped in size.
  r.post(
    api,
    '/analytics_events',
    { summary: 'Record a client analytics event' },
    z.object({ eventName: id(200), payload: z.record(z.string(), z.unknown()).nullish() }),
    async (c, b) => {
      const payload = JSON.stringify(b.payload ?? null)
      if (Buffer.byteLength(payload) > ANALYTICS_PAYLOAD_MAX) {
        throw errors.invalidData(`payload is larger than ${ANALYTICS_PAYLOAD_MAX} bytes`, undefined, 413)
      }
      const app = c.get('app')
      await ctx.store.transaction(async (q) => {
        if (!(await hitLimit(q, `analytics:${clientIp(c, ctx.trustProxy)}`, ctx.limits.analyticsPerIp, ctx.limits.analyticsWindowS))) throw errors.tooMany()
        const client = c.req.header('privy-client-id')
        await q.query(
          'INSERT INTO analytics_events (app_id, event_name, payload, client_id, created_at) VALUES ($1, $2, $3, $4, $5)',
          [app.id, b.eventName, payload, client && client.length <= 128 && !/[\u0000-\u001f\u007f]/.test(client) ? client : null, now()],
        )
      })
      return c.json({ success: true })
    },
  )
}
