import { createRemoteJWKSet, importJWK, jwtVerify, type JWTVerifyGetKey } from 'jose'
import type { AppSettings } from '../../config'
import { methodEnabled } from '../../config'
import { type ServerCtx } from '../../core/context'
import { errors } from '../../core/errors'
import { loginWithAccount } from '../../core/identity'
import { z } from 'zod'
import { id } from '../../core/validate'
import { router } from '../../core/router'
import { currentGuest } from '../../core/auth'

// Key sources are caches only (the JWKS itself lives at the host's URL).
const keyCache = new Map<string, JWTVerifyGetKey | CryptoKey | Uint8Array>()

async function keyFor(app: AppSettings) {
  const cached = keyCache.get(app.id)
  if (cached) return cached
  const ca = app.customAuth!
  const key = ca.jwksUrl
    ? createRemoteJWKSet(new URL(ca.jwksUrl))
    : await importJWK(ca.publicJwk!, ca.publicJwk!.alg ?? 'ES256')
  keyCache.set(app.id, key)
  return key
}

/** Custom auth: a JWT issued by the host, verified against the app's JWKS URL or inline JWK. */
export function customAuthRoutes(ctx: ServerCtx) {
  const r = router(ctx)
  r.post('/custom_jwt_account/authenticate', { summary: 'Log in with a JWT from the host app', body: z.object({ token: id(8192) }), auth: 'optional' }, async (c, { body: b }) => {
    const app = c.get('app')
    if (!methodEnabled(app, 'custom_auth') || !app.customAuth) throw errors.disallowedMethod('custom_auth')
    let sub: string | undefined
    try {
      const key = await keyFor(app)
      const { payload } = await jwtVerify(b.token, key as any, {
        issuer: app.customAuth.issuer,
        audience: app.customAuth.audience,
        requiredClaims: ['exp', 'sub'],
      })
      sub = payload.sub
    } catch {
      throw errors.invalidCredentials('Invalid custom auth token')
    }
    if (!sub) throw errors.invalidCredentials('Custom auth token has no sub claim')
    const guest = await currentGuest(c, ctx)
    return c.json(
      await loginWithAccount(
        ctx,
        app,
        {
          type: 'custom_auth',
          identifier: sub,
          data: { custom_user_id: sub },
          transferable: false,
          linkMethod: 'custom_auth',
          displayName: sub,
        },
        { guestUserId: guest },
      ),
    )
  })
  return r.app
}
