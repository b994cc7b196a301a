/** Shared shape of the wallet-signature kinds (SIWE, SIWS). */
import { clientIp, type C, type ServerCtx } from '../../core/context'
import { errors } from '../../core/errors'
import { requireCaptcha } from '../../captcha'
import { linkAccount, loginWithAccount, transferAccount, unlinkAccount } from '../../core/identity'
import { issueNonce } from '../../nonces'
import { z } from 'zod'
import { id, mode, optId, text } from '../../core/validate'
import { checkAllowlist, requireMethod } from '../../core/access'
import { router } from '../../core/router'
import { siweFlow } from './siwe'
import type { WalletFlow } from './flow'
import { siwsFlow } from './siws'
import { currentGuest } from '../../core/auth'
import { smartWalletsEnabled } from '../smart-wallets/config'


function walletFlowRoutes(ctx: ServerCtx, f: WalletFlow) {
  const r = router(ctx)
  const enabled = (c: C) => requireMethod(c, f.kind)
  const addr = (v: unknown) => {
    try {
      return f.normaliseAddress(String(v))
    } catch {
      throw errors.field('address', 'Invalid address')
    }
  }
  const name = f.kind.toUpperCase()

  r.post(`${f.base}/init`, { summary: `${name}: a nonce for an address`, body: z.object({ address: id(128), token: optId(4096) }) }, async (c, { body: b }) => {
    // Linking a smart wallet (/siwe/link_smart_wallet, issue 29) takes a SIWE nonce even where wallet login is off.
    const app = f.kind === 'siwe' && c.req.header('authorization') && smartWalletsEnabled(c.get('app')) ? c.get('app') : enabled(c)
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

  r.post(`${f.base}/authenticate`, { summary: `${name}: log in with a signed message`, body: z.object({ ...sigSchema, mode }), auth: 'optional' }, async (c, { body: b }) => {
      const app = enabled(c)
      const acct = await f.verify(c, app, b)
      checkAllowlist(app, String(acct.data.address))
      const guest = await currentGuest(c, ctx)
      return c.json(await loginWithAccount(ctx, app, acct, { mode: b.mode ?? undefined, guestUserId: guest }))
    })

  r.post(`${f.base}/link`, { summary: `${name}: link a wallet`, body: z.object(sigSchema), auth: 'link' }, async (c, { body: b, auth }) => {
    const app = enabled(c)
    const acct = await f.verify(c, app, b)
    checkAllowlist(app, String(acct.data.address))
    return c.json(await linkAccount(ctx, app, auth.userId, acct))
  })

  r.post(`${f.base}/unlink`, { summary: `${name}: unlink a wallet`, body: z.object({ address: id(128) }), auth: 'bearer' }, async (c, { body: b, auth }) => {
    // Spec part 1 section 5: an embedded wallet cannot be unlinked (its keys stay with the user's wallet root).
    const embedded = (d: Record<string, unknown>) => (d.wallet_client_type === 'privy' ? errors.invalidData('An embedded wallet cannot be unlinked.') : undefined)
    return c.json(await unlinkAccount(ctx, c.get('app'), auth.userId, 'wallet', f.identifier(addr(b.address)), embedded))
  })

  r.post(`${f.base}/transfer`, { summary: `${name}: move a wallet from another user`, body: z.object({ nonce: id(128), address: id(128) }), auth: 'link' }, async (c, { body: b, auth }) => {
      return c.json(await transferAccount(ctx, c.get('app'), auth.userId, b.nonce, 'wallet', f.identifier(addr(b.address))))
    })
  return r.app
}

/** Sign-In with Ethereum: /siwe/{init,authenticate,link,unlink,transfer} (siwe.ts verifies). */
export const siweRoutes = (ctx: ServerCtx) => walletFlowRoutes(ctx, siweFlow(ctx))
/** Sign-In With Solana: /siws/{init,authenticate,link,unlink,transfer} (siws.ts verifies). */
export const siwsRoutes = (ctx: ServerCtx) => walletFlowRoutes(ctx, siwsFlow(ctx))
