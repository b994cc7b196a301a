import { toWireApp } from '../../config'
import type { ServerCtx } from '../../core/context'
import { errors } from '../../core/errors'
import { router } from '../../core/router'

/** GET /apps/{appId} (WireAppConfig, nothing secret) and its JWKS for verifying our tokens. */
export function appsRoutes(ctx: ServerCtx) {
  const r = router(ctx)
  const appFor = (id: string) => {
    const a = ctx.apps.get(id)
    if (!a) throw errors.invalidAppId(404, 'Unknown app id')
    return a
  }
  r.get('/apps/:appId', { summary: 'App configuration (WireAppConfig)' }, (c) => c.json(toWireApp(appFor(c.req.param('appId') ?? ''))))
  r.get('/apps/:appId/jwks.json', { summary: 'Public keys of the access and identity tokens' }, (c) => {
    appFor(c.req.param('appId') ?? '')
    return c.json({ keys: [ctx.signer.publicJwk] })
  })
  return r.app
}
