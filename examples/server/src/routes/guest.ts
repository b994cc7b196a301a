import { methodEnabled } from '../config'
import type { Api, ServerCtx } from '../context'
import { errors } from '../errors'
import { guestLogin } from '../identity'
import { z } from 'zod'
import { id } from '../validate'
import { fieldError } from './code-flow'

/** Guest accounts: the client keeps 32 random bytes; the same credential gives the same user. */
export function registerGuest(api: Api, ctx: ServerCtx) {
  ctx.routes.post(api, '/guest/authenticate', { summary: 'Log in as a guest (32 random bytes)' }, z.object({ guest_credential: id(64) }), async (c, b) => {
    const app = c.get('app')
    if (!methodEnabled(app, 'guest')) throw errors.disallowedMethod('guest')
    if (!/^[A-Za-z0-9_-]+={0,2}$/.test(b.guest_credential) || Buffer.from(b.guest_credential, 'base64url').length !== 32) {
      throw fieldError('guest_credential', 'Expected 32 random bytes, base64url')
    }
    return c.json(await guestLogin(ctx, app, b.guest_credential))
  })
}
