import { methodEnabled } from '../../config'
import type { ServerCtx } from '../../core/context'
import { errors } from '../../core/errors'
import { guestLogin } from '../../core/identity'
import { z } from 'zod'
import { id } from '../../core/validate'
import { router } from '../../core/router'

/** Guest accounts: the client keeps 32 random bytes; the same credential gives the same user. */
export function guestRoutes(ctx: ServerCtx) {
  const r = router(ctx)
  r.post('/guest/authenticate', { summary: 'Log in as a guest (32 random bytes)', body: z.object({ guest_credential: id(64) }) }, async (c, { body: b }) => {
    const app = c.get('app')
    if (!methodEnabled(app, 'guest')) throw errors.disallowedMethod('guest')
    if (!/^[A-Za-z0-9_-]+={0,2}$/.test(b.guest_credential) || Buffer.from(b.guest_credential, 'base64url').length !== 32) {
      throw errors.field('guest_credential', 'Expected 32 random bytes, base64url')
    }
    return c.json(await guestLogin(ctx, app, b.guest_credential))
  })
  return r.app
}
