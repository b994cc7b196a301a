import type { WireForkResponse } from '../../../../kernel/wire'
import { bearer, requireAuth, type Api, type ServerCtx } from '../context'
import { errors } from '../errors'
import { authResponse, createSession, loadUser, revokeByRefreshToken, revokeSession, rotateRefreshToken } from '../identity'
import { signAccessToken, verifyAccessToken } from '../tokens'
import { body } from '../validate'

/** Refresh (rotation + reuse detection), logout, fork and fork recovery. */
export function registerSessions(api: Api, ctx: ServerCtx) {
  // Refresh. The bearer may carry an expired access token; the refresh token decides.
  api.post('/sessions', async (c) => {
    const { refresh_token } = await body(c, { refresh_token: 'string' })
    const app = c.get('app')
    const r = await rotateRefreshToken(ctx.store, app.id, refresh_token)
    const user = await loadUser(ctx.store, r.userId)
    if (!user) throw errors.invalidToken()
    return c.json(await authResponse(ctx, app.id, user, r, false))
  })

  api.post('/sessions/logout', async (c) => {
    const { refresh_token } = await body(c, { refresh_token: 'string?' })
    const app = c.get('app')
    if (refresh_token) await revokeByRefreshToken(ctx.store, app.id, refresh_token)
    const token = bearer(c)
    if (token) {
      const claims = await verifyAccessToken(ctx.signer, token, app.id, { allowExpired: true })
      if (claims) await revokeSession(ctx.store, claims.sid)
    }
    return c.json({ success: true })
  })

  // Fork: rotate the caller's token and open a second session (same family) for another context.
  api.post('/sessions/fork', async (c) => {
    const { refresh_token } = await body(c, { refresh_token: 'string' })
    const app = c.get('app')
    const auth = await requireAuth(c, ctx)
    const r = await rotateRefreshToken(ctx.store, app.id, refresh_token, {
      sessionId: auth.sessionId,
      then: (q, rot) => createSession(q, app.id, rot.userId, { familyId: rot.familyId, kind: 'fork' }),
    })
    const res: WireForkResponse = {
      refresh_token: r.refreshToken,
      token: await signAccessToken(ctx.signer, { userId: r.userId, appId: app.id, sessionId: r.sessionId }),
      new_session_refresh_token: r.extra!.refreshToken,
    }
    return c.json(res)
  })

  // Exchange a forked refresh token for a full session.
  api.post('/sessions/fork/recover', async (c) => {
    const { refresh_token } = await body(c, { refresh_token: 'string' })
    const app = c.get('app')
    const r = await rotateRefreshToken(ctx.store, app.id, refresh_token, { kind: 'fork' })
    const user = await loadUser(ctx.store, r.userId)
    if (!user) throw errors.invalidToken()
    return c.json(await authResponse(ctx, app.id, user, r, false))
  })
}
