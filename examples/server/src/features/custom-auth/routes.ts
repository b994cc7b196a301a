import { createRemoteJWKSet, importJWK, jwtVerify, type JWTVerifyGetKey } from 'jose'
import type { AppSettings } from '../../config'
import { methodEnabled } from '../../config'
import { type ServerCtx } from '../../core/context'
import { errors } from '../../core/errors'
import { linkAccount, loginWithAccount, type AccountInput } from '../../core/identity'
import { z } from 'zod'
import { id, mode } from '../../core/validate'
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

/** The token's subject, verified against the app's JWKS URL or inline JWK (issuer, audience, exp). */
async function verifiedSubject(app: AppSettings, token: string): Promise<string> {
  if (!methodEnabled(app, 'custom_auth') || !app.customAuth) throw errors.disallowedMethod('custom_auth')
  let sub: string | undefined
  try {
    const key = await keyFor(app)
    const { payload } = await jwtVerify(token, key as any, {
      issuer: app.customAuth.issuer,
      audience: app.customAuth.audience,
      requiredClaims: ['exp', 'sub'],
    })
    sub = payload.sub
  } catch {
    throw errors.invalidCredentials('Invalid custom auth token')
  }
  if (!sub) throw errors.invalidCredentials('Custom auth token has no sub claim')
  return sub
}

const customAccount = (sub: string): AccountInput => ({
  type: 'custom_auth',
  identifier: sub,
  data: { custom_user_id: sub },
  transferable: false,
  linkMethod: 'custom_auth',
  displayName: sub,
})

/** Custom auth: a JWT issued by the host, verified against the app's JWKS URL or inline JWK. */
export function customAuthRoutes(ctx: ServerCtx) {
  const r = router(ctx)
  r.post('/custom_jwt_account/authenticate', { summary: 'Log in with a JWT from the host app', body: z.object({ token: id(8192), mode }), auth: 'optional' }, async (c, { body: b }) => {
    const app = c.get('app')
    const sub = await verifiedSubject(app, b.token)
    const guest = await currentGuest(c, ctx)
    return c.json(await loginWithAccount(ctx, app, customAccount(sub), { mode: b.mode ?? undefined, guestUserId: guest }))
  })
  // The published client's linkWithToken (no path in the spec): one custom-auth account per user.
  r.post('/custom_jwt_account/link', { summary: 'Link a custom-auth account with a JWT from the host app', body: z.object({ token: id(8192) }), auth: 'link' }, async (c, { body: b, auth }) => {
    const app = c.get('app')
    const sub = await verifiedSubject(app, b.token)
    return c.json(await linkAccount(ctx, app, auth.userId, customAccount(sub)))
  })
  return r.app
}
