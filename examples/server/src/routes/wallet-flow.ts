/** Shared shape of the wallet-signature kinds (SIWE, SIWS). */
import type { AppSettings } from '../config'
import { methodEnabled } from '../config'
import { clientIp, currentGuest, requireAuth, type Api, type C, type ServerCtx } from '../context'
import { errors } from '../errors'
import { requireCaptcha } from '../captcha'
import { linkAccount, loginWithAccount, transferAccount, unlinkAccount, type AccountInput } from '../identity'
import { issueNonce } from '../nonces'
import { z } from 'zod'
import { id, mode, optId, text } from '../validate'
import { checkAllowlist, fieldError } from './code-flow'

export interface WalletFlow {
  base: string
  kind: 'siwe' | 'siws'
  /** Normalised address (nonce subject) or 422. */
  normaliseAddress(address: string): string
  /** Verifies message + signature (domain, nonce, times, signature); returns the account. */
  verify(c: C, app: AppSettings, b: Record<string, unknown>): Promise<AccountInput>
  /** Unique identifier of an address. */
  identifier(address: string): string
}

export function registerWalletFlow(api: Api, ctx: ServerCtx, f: WalletFlow) {
  const enabled = (c: C) => {
    const app = c.get('app')
    if (!methodEnabled(app, f.kind)) throw errors.disallowedMethod(f.kind)
    return app
  }
  const addr = (v: unknown) => {
    try {
      return f.normaliseAddress(String(v))
    } catch {
      throw fieldError('address', 'Invalid address')
    }
  }
  const r = ctx.routes
  const name = f.kind.toUpperCase()

  r.post(api, `${f.base}/init`, { summary: `${name}: a nonce for an address` }, z.object({ address: id(128), token: optId(4096) }), async (c, b) => {
    const app = enabled(c)
    // Linking (a bearer) needs no captcha; a login's init does.
    if (!c.req.header('authorization')) await requireCaptcha(c, ctx, b.token)
    return c.json(
      await issueNonce(ctx.store, ctx.limits, {
        appId: app.id,
        kind: f.kind,
        subject: addr(b.address),
        ip: clientIp(c, ctx.trustProxy),
      }),
    )
  })

  const sigSchema = {
    message: text(4096),
    signature: id(16_384),
    walletClientType: optId(64),
    connectorType: optId(64),
    chainId: z.union([z.number().int().positive().max(2 ** 48), optId(64)]).nullish(),
  }

  r.post(
    api,
    `${f.base}/authenticate`,
    { summary: `${name}: log in with a signed message`, auth: 'optional' },
    z.object({ ...sigSchema, mode }),
    async (c, b) => {
      const app = enabled(c)
      const acct = await f.verify(c, app, b)
      checkAllowlist(app, String(acct.data.address))
      const guest = await currentGuest(c, ctx)
      return c.json(await loginWithAccount(ctx, app, acct, { mode: b.mode ?? undefined, guestUserId: guest }))
    },
  )

  r.post(api, `${f.base}/link`, { summary: `${name}: link a wallet`, auth: 'bearer' }, z.object(sigSchema), async (c, b) => {
    const auth = await requireAuth(c, ctx, { linking: true })
    const app = enabled(c)
    const acct = await f.verify(c, app, b)
    checkAllowlist(app, String(acct.data.address))
    return c.json(await linkAccount(ctx, app, auth.userId, acct))
  })

  r.post(api, `${f.base}/unlink`, { summary: `${name}: unlink a wallet`, auth: 'bearer' }, z.object({ address: id(128) }), async (c, b) => {
    const auth = await requireAuth(c, ctx)
    // Spec part 1 section 5: an embedded wallet cannot be unlinked (its keys stay with the user's wallet root).
    const embedded = (d: Record<string, unknown>) => (d.wallet_client_type === 'privy' ? errors.invalidData('An embedded wallet cannot be unlinked.') : undefined)
    return c.json(await unlinkAccount(ctx, c.get('app'), auth.userId, 'wallet', f.identifier(addr(b.address)), embedded))
  })

  r.post(
    api,
    `${f.base}/transfer`,
    { summary: `${name}: move a wallet from another user`, auth: 'bearer' },
    z.object({ nonce: id(128), address: id(128) }),
    async (c, b) => {
      const auth = await requireAuth(c, ctx, { linking: true })
      return c.json(await transferAccount(ctx, c.get('app'), auth.userId, b.nonce, 'wallet', f.identifier(addr(b.address))))
    },
  )
}
