/** Shared shape of the wallet-signature kinds (SIWE, SIWS). */
import type { AppSettings } from '../config'
import { methodEnabled } from '../config'
import { clientIp, currentGuest, requireAuth, type Api, type C, type ServerCtx } from '../context'
import { errors } from '../errors'
import { linkAccount, loginWithAccount, transferAccount, unlinkAccount, type AccountInput } from '../identity'
import { issueNonce } from '../nonces'
import { body } from '../validate'
import { checkAllowlist, checkMode, fieldError } from './code-flow'

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

  api.post(`${f.base}/init`, async (c) => {
    const b = await body(c, { address: 'string', token: 'string?' })
    const app = enabled(c)
    if (app.captcha?.enabled && !b.token && !c.req.header('authorization')) throw errors.invalidCaptcha()
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
    message: 'string',
    signature: 'string',
    walletClientType: 'string?',
    connectorType: 'string?',
    chainId: 'string|number?',
  } as const

  api.post(`${f.base}/authenticate`, async (c) => {
    const b = await body(c, { ...sigSchema, mode: 'string?' })
    const app = enabled(c)
    const mode = checkMode(b.mode)
    const acct = await f.verify(c, app, b)
    checkAllowlist(app, String(acct.data.address))
    const guest = await currentGuest(c, ctx)
    return c.json(await loginWithAccount(ctx, app, acct, { mode, guestUserId: guest }))
  })

  api.post(`${f.base}/link`, async (c) => {
    const b = await body(c, sigSchema)
    const auth = await requireAuth(c, ctx, { linking: true })
    const app = enabled(c)
    const acct = await f.verify(c, app, b)
    return c.json(await linkAccount(ctx, app, auth.userId, acct))
  })

  api.post(`${f.base}/unlink`, async (c) => {
    const b = await body(c, { address: 'string' })
    const auth = await requireAuth(c, ctx)
    return c.json(await unlinkAccount(ctx, c.get('app'), auth.userId, 'wallet', f.identifier(addr(b.address))))
  })

  api.post(`${f.base}/transfer`, async (c) => {
    const b = await body(c, { nonce: 'string', address: 'string' })
    const auth = await requireAuth(c, ctx, { linking: true })
    return c.json(
      await transferAccount(ctx, c.get('app'), auth.userId, b.nonce, 'wallet', f.identifier(addr(b.address))),
    )
  })
}
