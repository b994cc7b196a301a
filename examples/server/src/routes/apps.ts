import { toWireApp } from '../config'
import type { Api, ServerCtx } from '../context'
import { errors } from '../errors'

/** GET /apps/{appId} (WireAppConfig, nothing secret) and its JWKS for verifying our tokens. */
export function registerApps(api: Api, ctx: ServerCtx) {
  const appFor = (id: string) => {
    const a = ctx.apps.get(id)
    if (!a) throw errors.invalidAppId(404, 'Unknown app id')
    return a
  }
  ctx.routes.get(api, '/apps/:appId', { summary: 'App configuration (WireAppConfig)' }, (c) => c.json(toWireApp(appFor(c.req.param('appId') ?? ''))))
  ctx.routes.get(api, '/apps/:appId/jwks.json', { summary: 'Public keys of the access and identity tokens' }, (c) => {
    appFor(c.req.param('appId') ?? '')
    return c.json({ keys: [ctx.signer.publicJwk] })
  })
}
