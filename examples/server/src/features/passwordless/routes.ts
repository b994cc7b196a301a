/**
 * The one-time-code login kinds (e-mail and SMS): init, authenticate, link, update, unlink,
 * transfer, one shape configured by email.ts and sms.ts.
 */
import { checkCode, consumeCode, issueCode } from '../../codes'
import type { Queryable } from '../../core/store'
import { clientIp, type C, type ServerCtx } from '../../core/context'
import { codeDelivery } from '../../delivery'
import { requireCaptcha } from '../../captcha'
import { linkAccount, loginWithAccount, requireAccountOfType, transferAccount, unlinkAccount, updateAccount } from '../../core/identity'
import { z } from 'zod'
import { id, mode, optId } from '../../core/validate'
import { router } from '../../core/router'
import { checkAllowlist, requireMethod } from '../../core/access'
import { emailFlow } from './email'
import type { CodeFlow } from './flow'
import { smsFlow } from './sms'
import { currentGuest } from '../../core/auth'


function codeFlowRoutes(ctx: ServerCtx, f: CodeFlow) {
  const r = router(ctx)
  const enabled = (c: C) => requireMethod(c, f.method)
  const idOf = (c: C, value: string, field: string) => f.normalise(value, field, c.get('app'))
  const requester = (c: C) => clientIp(c, ctx.trustProxy)
  const consume = (c: C, identifier: string, code: string) =>
    consumeCode(ctx.store, ctx.limits, ctx.keys, {
      appId: c.get('app').id,
      channel: f.channel,
      identifier,
      code,
      requester: requester(c),
    })
  const idField = id(f.maxLength)
  const code = id(32)

  r.post(`${f.base}/init`, { summary: `Send a ${f.channel} code`, body: z.object({ [f.fields.id]: idField, token: optId(4096) }) }, async (c, { body: b }) => {
    const app = enabled(c)
    const to = idOf(c, b[f.fields.id] as string, f.fields.id)
    await requireCaptcha(c, ctx, b.token as string | null | undefined)
    await issueCode(ctx.store, ctx.limits, ctx.keys, { appId: app.id, channel: f.channel, identifier: to, requester: requester(c) }, codeDelivery(ctx.delivery, { appId: app.id, appName: app.name, channel: f.channel, to }),
    )
    return c.json({ success: true })
  })

  r.post(`${f.base}/authenticate`, { summary: `Log in with a ${f.channel} code`, body: z.object({ [f.fields.id]: idField, code, mode }), auth: 'optional' }, async (c, { body: b }) => {
      const app = enabled(c)
      const idv = idOf(c, b[f.fields.id] as string, f.fields.id)
      checkAllowlist(app, idv)
      const guest = await currentGuest(c, ctx)
      // The code is checked and consumed in the login's own transaction.
      const verify = (q: Queryable) =>
        checkCode(q, ctx.limits, ctx.keys, { appId: app.id, channel: f.channel, identifier: idv, code: b.code as string, requester: requester(c) })
      return c.json(await loginWithAccount(ctx, app, f.account(idv), { mode: (b.mode as string | null) ?? undefined, guestUserId: guest, verify }))
    })

  r.post(`${f.base}/link`, { summary: `Link a ${f.channel} account`, body: z.object({ [f.fields.id]: idField, code }), auth: 'link' }, async (c, { body: b, auth }) => {
    const app = enabled(c)
    const idv = idOf(c, b[f.fields.id] as string, f.fields.id)
    checkAllowlist(app, idv)
    await consume(c, idv, b.code as string)
    return c.json(await linkAccount(ctx, app, auth.userId, f.account(idv)))
  })

  r.post(`${f.base}/update`, { summary: `Replace the ${f.channel} account (code sent to the new one)`, body: z.object({ [f.fields.updateOld]: idField, [f.fields.updateNew]: idField, code }), auth: 'link' }, async (c, { body: b, auth }) => {
      const app = enabled(c)
      await requireAccountOfType(ctx, auth.userId, f.accountType)
      const oldId = idOf(c, b[f.fields.updateOld] as string, f.fields.updateOld)
      const newId = idOf(c, b[f.fields.updateNew] as string, f.fields.updateNew)
      checkAllowlist(app, newId)
      // The code was sent to the new address.
      await consume(c, newId, b.code as string)
      return c.json(await updateAccount(ctx, app, auth.userId, f.accountType, oldId, f.account(newId)))
    })

  r.post(`${f.base}/unlink`, { summary: `Unlink the ${f.channel} account`, body: z.object({ [f.fields.unlink]: idField }), auth: 'bearer' }, async (c, { body: b, auth }) => {
    const app = c.get('app')
    const idv = f.normalise(b[f.fields.unlink] as string, f.fields.unlink, { ...app, disablePlusEmails: false })
    return c.json(await unlinkAccount(ctx, app, auth.userId, f.accountType, idv))
  })

  r.post(`${f.base}/transfer`, { summary: `Move the ${f.channel} account from another user (nonce from account_transfer_required)`, body: z.object({ nonce: id(128), [f.fields.id]: idField }), auth: 'link' }, async (c, { body: b, auth }) => {
      const app = c.get('app')
      const idv = f.normalise(b[f.fields.id] as string, f.fields.id, { ...app, disablePlusEmails: false })
      return c.json(await transferAccount(ctx, app, auth.userId, b.nonce as string, f.accountType, idv))
    })
  return r.app
}

/** Passwordless e-mail: /passwordless/{init,authenticate,link,update,unlink,transfer}. */
export const emailRoutes = (ctx: ServerCtx) => codeFlowRoutes(ctx, emailFlow)
/** Passwordless SMS: /passwordless_sms/{init,authenticate,link,update,unlink,transfer}. */
export const smsRoutes = (ctx: ServerCtx) => codeFlowRoutes(ctx, smsFlow)
