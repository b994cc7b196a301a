import { z } from 'zod'
import type { WireForkResponse } from '../../wire'
import { bearer } from '../../core/auth'
import type { ServerCtx } from '../../core/context'
import { router } from '../../core/router'
import { errors } from '../../core/errors'
import { authResponse, createSession, loadUser, revokeByRefreshToken, revokeSession, rotateRefreshToken } from '../../core/identity'
import { signAccessToken, verifyAccessToken } from '../../core/identity/tokens'
import { id, optId } from '../../core/validate'

const refresh = z.object({ refresh_token: id(128) })

/** Refresh (rotation + reuse detection with a reuse interval), logout, fork and fork recovery. */
export function sessionsRoutes(ctx: ServerCtx) {
  const r = router(ctx)
  // Refresh. The bearer may carry an expired access token; the refresh token decides.
  r.post('/sessions', { summary: 'Refresh: rotate the refresh token, new access token', body: refresh }, async (c, { body: b }) => {
    const app = c.get('app')
    const rot = await rotateRefreshToken(ctx, app.id, b.refresh_token, { reuseIntervalS: ctx.limits.refreshReuseIntervalS })
    const user = await loadUser(ctx.store, rot.userId)
    if (!user) throw errors.invalidToken()
    return c.json(await authResponse(ctx, app.id, user, rot, false))
  })

  r.post('/sessions/logout', { summary: 'Log out (revoke the session)', body: z.object({ refresh_token: optId(128) }) }, async (c, { body: b }) => {
    const app = c.get('app')
    if (b.refresh_token) await revokeByRefreshToken(ctx.store, app.id, b.refresh_token)
    const token = bearer(c)
    if (token) {
      const claims = await verifyAccessToken(ctx.signer, token, app.id, { allowExpired: true })
      if (claims) await revokeSession(ctx.store, claims.sid)
    }
    return c.json({ success: true })
  })

  // Fork: rotate the caller's token and open a second session (same family) for another context.
  r.post('/sessions/fork', { summary: 'Fork the session for another context', body: refresh, auth: 'bearer' }, async (c, { body: b, auth }) => {
    const app = c.get('app')
    const rot = await rotateRefreshToken(ctx, app.id, b.refresh_token, {
      sessionId: auth.sessionId,
      then: (q, x) => createSession(q, app.id, x.userId, { familyId: x.familyId, kind: 'fork' }),
    })
    const res: WireForkResponse = {
      refresh_token: rot.refreshToken,
      token: await signAccessToken(ctx.signer, { userId: rot.userId, appId: app.id, sessionId: rot.sessionId }),
      new_session_refresh_token: rot.extra!.refreshToken,
    }
    return c.json(res)
  })

  // Exchange a forked refresh token for a full session.
  r.post('/sessions/fork/recover', { summary: 'Exchange a forked refresh token for a session', body: refresh }, async (c, { body: b }) => {
    const app = c.get('app')
    const rot = await rotateRefreshToken(ctx, app.id, b.refresh_token, { kind: 'fork', reuseIntervalS: ctx.limits.refreshReuseIntervalS })
    const user = await loadUser(ctx.store, rot.userId)
    if (!user) throw errors.invalidToken()
    return c.json(await authResponse(ctx, app.id, user, rot, false))
  })
  return r.app
}
