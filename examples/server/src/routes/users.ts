import { requireAuth, type Api, type ServerCtx } from '../context'
import { errors } from '../errors'
import { loadUser, userResponse } from '../identity'
import { now } from '../tokens'
import { body } from '../validate'

/** The current user, terms acceptance, analytics events. */
export function registerUsers(api: Api, ctx: ServerCtx) {
  api.get('/users/me', async (c) => {
    const auth = await requireAuth(c, ctx)
    const user = await loadUser(ctx.store, auth.userId)
    if (!user) throw errors.invalidToken()
    return c.json({ user })
  })

  api.post('/users/me/accept_terms', async (c) => {
    const auth = await requireAuth(c, ctx)
    await ctx.store.query('UPDATE users SET has_accepted_terms = true WHERE id = $1', [auth.userId])
    const user = await loadUser(ctx.store, auth.userId)
    if (!user) throw errors.invalidToken()
    return c.json(await userResponse(ctx, c.get('app').id, user))
  })

  api.post('/analytics_events', async (c) => {
    const b = await body(c, { eventName: 'string', payload: 'object?' })
    await ctx.store.query(
      'INSERT INTO analytics_events (app_id, event_name, payload, client_id, created_at) VALUES ($1, $2, $3, $4, $5)',
      [c.get('app').id, b.eventName.slice(0, 200), JSON.stringify(b.payload ?? null), c.req.header('privy-client-id') ?? null, now()],
    )
    return c.json({ success: true })
  })
}
