/**
 * Shared shape of the one-time-code login kinds (e-mail and SMS): init, authenticate,
 * link, update, unlink, transfer. passwordless.ts and passwordless-sms.ts configure it.
 */
import type { AppSettings } from '../config'
import { methodEnabled } from '../config'
import { checkCode, consumeCode, issueCode } from '../codes'
import type { Queryable } from '../store'
import { clientIp, currentGuest, requireAuth, type Api, type C, type ServerCtx } from '../context'
import { codeDelivery } from '../delivery'
import { requireCaptcha } from '../captcha'
import { ApiError, errors } from '../errors'
import {
  linkAccount,
  loginWithAccount,
  requireAccountOfType,
  transferAccount,
  unlinkAccount,
  updateAccount,
  type AccountInput,
} from '../identity'
import { z } from 'zod'
import { id, mode, optId } from '../validate'

export interface CodeFlow {
  base: string
  channel: 'email' | 'sms'
  method: 'email' | 'sms'
  accountType: 'email' | 'phone'
  /** Body field names per call. */
  fields: {
    id: string
    updateOld: string
    updateNew: string
    unlink: string
  }
  /** Longest accepted identifier (checked before any pattern runs). */
  maxLength: number
  /** Normalise an identifier or throw 422 invalid_data naming `field`. */
  normalise(value: string, field: string, app: AppSettings): string
  account(identifier: string): AccountInput
}

export function fieldError(field: string, msg: string): ApiError {
  return new ApiError(422, 'invalid_data', `${field}: ${msg}`, { fields: { [field]: msg } })
}

export function checkMode(mode: unknown): 'login-or-sign-up' | 'no-signup' {
  if (mode === undefined || mode === null || mode === 'login-or-sign-up') return 'login-or-sign-up'
  if (mode === 'no-signup') return 'no-signup'
  throw fieldError('mode', "Expected 'login-or-sign-up' or 'no-signup'")
}

/** Allowlist: when configured, only listed identifiers may log in (e-mail, phone, wallet address). */
export function checkAllowlist(app: AppSettings, identifier: string) {
  if (!app.allowlist) return
  const want = identifier.toLowerCase()
  if (!app.allowlist.entries.some((e) => e.trim().toLowerCase() === want)) throw errors.allowlist()
}

export function registerCodeFlow(api: Api, ctx: ServerCtx, f: CodeFlow) {
  const enabled = (c: C) => {
    const app = c.get('app')
    if (!methodEnabled(app, f.method)) throw errors.disallowedMethod(f.method)
    return app
  }
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
  const r = ctx.routes

  r.post(api, `${f.base}/init`, { summary: `Send a ${f.channel} code` }, z.object({ [f.fields.id]: idField, token: optId(4096) }), async (c, b) => {
    const app = enabled(c)
    const to = idOf(c, b[f.fields.id] as string, f.fields.id)
    await requireCaptcha(c, ctx, b.token as string | null | undefined)
    await issueCode(ctx.store, ctx.limits, ctx.keys, { appId: app.id, channel: f.channel, identifier: to, requester: requester(c) }, codeDelivery(ctx.delivery, { appId: app.id, appName: app.name, channel: f.channel, to }),
    )
    return c.json({ success: true })
  })

  r.post(
    api,
    `${f.base}/authenticate`,
    { summary: `Log in with a ${f.channel} code`, auth: 'optional' },
    z.object({ [f.fields.id]: idField, code, mode }),
    async (c, b) => {
      const app = enabled(c)
      const idv = idOf(c, b[f.fields.id] as string, f.fields.id)
      checkAllowlist(app, idv)
      const guest = await currentGuest(c, ctx)
      // The code is checked and consumed in the login's own transaction.
      const verify = (q: Queryable) =>
        checkCode(q, ctx.limits, ctx.keys, { appId: app.id, channel: f.channel, identifier: idv, code: b.code as string, requester: requester(c) })
      return c.json(await loginWithAccount(ctx, app, f.account(idv), { mode: (b.mode as string | null) ?? undefined, guestUserId: guest, verify }))
    },
  )

  r.post(api, `${f.base}/link`, { summary: `Link a ${f.channel} account`, auth: 'bearer' }, z.object({ [f.fields.id]: idField, code }), async (c, b) => {
    const auth = await requireAuth(c, ctx, { linking: true })
    const app = enabled(c)
    const idv = idOf(c, b[f.fields.id] as string, f.fields.id)
    checkAllowlist(app, idv)
    await consume(c, idv, b.code as string)
    return c.json(await linkAccount(ctx, app, auth.userId, f.account(idv)))
  })

  r.post(
    api,
    `${f.base}/update`,
    { summary: `Replace the ${f.channel} account (code sent to the new one)`, auth: 'bearer' },
    z.object({ [f.fields.updateOld]: idField, [f.fields.updateNew]: idField, code }),
    async (c, b) => {
      const auth = await requireAuth(c, ctx, { linking: true })
      const app = enabled(c)
      await requireAccountOfType(ctx, auth.userId, f.accountType)
      const oldId = idOf(c, b[f.fields.updateOld] as string, f.fields.updateOld)
      const newId = idOf(c, b[f.fields.updateNew] as string, f.fields.updateNew)
      checkAllowlist(app, newId)
      // The code was sent to the new address.
      await consume(c, newId, b.code as string)
      return c.json(await updateAccount(ctx, app, auth.userId, f.accountType, oldId, f.account(newId)))
    },
  )

  r.post(api, `${f.base}/unlink`, { summary: `Unlink the ${f.channel} account`, auth: 'bearer' }, z.object({ [f.fields.unlink]: idField }), async (c, b) => {
    const auth = await requireAuth(c, ctx)
    const app = c.get('app')
    const idv = f.normalise(b[f.fields.unlink] as string, f.fields.unlink, { ...app, disablePlusEmails: false })
    return c.json(await unlinkAccount(ctx, app, auth.userId, f.accountType, idv))
  })

  r.post(
    api,
    `${f.base}/transfer`,
    { summary: `Move the ${f.channel} account from another user (nonce from account_transfer_required)`, auth: 'bearer' },
    z.object({ nonce: id(128), [f.fields.id]: idField }),
    async (c, b) => {
      const auth = await requireAuth(c, ctx, { linking: true })
      const app = c.get('app')
      const idv = f.normalise(b[f.fields.id] as string, f.fields.id, { ...app, disablePlusEmails: false })
      return c.json(await transferAccount(ctx, app, auth.userId, b.nonce as string, f.accountType, idv))
    },
  )
}
