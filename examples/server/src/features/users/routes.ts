import { z } from 'zod'
import { insertAnalyticsEvent } from './repo'
import { clientIp, type ServerCtx } from '../../core/context'
import { hitLimit } from '../../codes'
import { errors } from '../../core/errors'
import { acceptTerms, identityToken, loadUser, loadUserOfApp } from '../../core/identity'
import { now } from '../../core/identity/tokens'
import { optId } from '../../core/validate'
import { router } from '../../core/router'

/** Analytics payloads above this many bytes (serialised) are refused with 413. */
export const ANALYTICS_PAYLOAD_MAX = 4096

/** The current user, terms acceptance, analytics events. */
export function usersRoutes(ctx: ServerCtx) {
  const r = router(ctx)
  r.get('/users/me', { summary: 'The current user', auth: 'bearer' }, async (c, { auth }) => {
    const user = await loadUser(ctx.store, auth.userId)
    if (!user) throw errors.invalidToken()
    // With the identity token (the published client stores what it gets and clears it when absent).
    return c.json({ user, identity_token: await identityToken(ctx, c.get('app').id, user) })
  })

  // The host app's backend (portico/server getUser): Basic base64(appId:appSecret), never from a
  // browser; only users of that app.
  r.get('/users/:userId', { summary: "A user of the app, for the app's backend (Basic app id and app secret)", auth: 'app-secret' }, async (c, { auth: app }) => {
    const user = await loadUserOfApp(ctx.store, c.req.param('userId') ?? '', app.id)
    if (!user) throw errors.notFound()
    return c.json({ user })
  })

  // Answers the user record itself (the published client's shape; the spec shows no answer).
  r.post('/users/me/accept_terms', { summary: 'Record terms acceptance; answers the user', auth: 'bearer' }, async (c, { auth }) => {
    const user = await acceptTerms(ctx.store, auth.userId)
    if (!user) throw errors.invalidToken()
    return c.json(user)
  })

  // Unauthenticated: limited per IP (PORTICO_ANALYTICS_PER_IP a minute) and capped in size.
  // The spec names the event `eventName`; the published client sends `event_name`: either one.
  const analyticsBody = z.object({ eventName: optId(200), event_name: optId(200), payload: z.record(z.string(), z.unknown()).nullish() })
  r.post('/analytics_events', { summary: 'Record a client analytics event (eventName or event_name)', body: analyticsBody }, async (c, { body: b }) => {
      const name = (b.eventName ?? b.event_name ?? '').trim()
      if (!name) throw errors.invalidData('eventName: Required', { fields: { eventName: 'Required' } }, 422)
      if (b.eventName && b.event_name && b.eventName !== b.event_name) {
        throw errors.invalidData('eventName and event_name differ: send one', { fields: { eventName: 'Differs from event_name' } }, 422)
      }
      const payload = JSON.stringify(b.payload ?? null)
      if (Buffer.byteLength(payload) > ANALYTICS_PAYLOAD_MAX) {
        throw errors.invalidData(`payload is larger than ${ANALYTICS_PAYLOAD_MAX} bytes`, undefined, 413)
      }
      const app = c.get('app')
      await ctx.store.transaction(async (q) => {
        if (!(await hitLimit(q, `analytics:${clientIp(c, ctx.trustProxy)}`, ctx.limits.analyticsPerIp, ctx.limits.analyticsWindowS))) throw errors.tooMany()
        const client = c.req.header('privy-client-id')
        await insertAnalyticsEvent(q, { appId: app.id, name, payload, clientId: client && client.length <= 128 && !/[\u0000-\u001f\u007f]/.test(client) ? client : null, t: now() })
      })
      return c.json({ success: true })
    })
  return r.app
}
