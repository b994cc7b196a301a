/**
 * Shared shape of the one-time-code login kinds (e-mail and SMS): init, authenticate,
 * link, update, unlink, transfer. passwordless.ts and passwordless-sms.ts configure it.
 */
import type { AppSettings } from '../config'
import { methodEnabled } from '../config'
import { consumeCode, issueCode } from '../codes'
import { clientIp, currentGuest, requireAuth, type Api, type C, type ServerCtx } from '../context'
import { deliverCode } from '../delivery'
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
import { body } from '../validate'

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

  api.post(`${f.base}/init`, async (c) => {
    const b = await body(c, { [f.fields.id]: 'string', token: 'string?' })
    const app = enabled(c)
    const id = idOf(c, b[f.fields.id] as string, f.fields.id)
    if (app.captcha?.enabled && !b.token) throw errors.invalidCaptcha()
    const code = await issueCode(ctx.store, ctx.limits, {
      appId: app.id,
      channel: f.channel,
      identifier: id,
      ip: clientIp(c, ctx.trustProxy),
    })
    await deliverCode(ctx.store, ctx.delivery, { appId: app.id, appName: app.name, channel: f.channel, to: id, code })
    return c.json({ success: true })
  })

  api.post(`${f.base}/authenticate`, async (c) => {
    const b = await body(c, { [f.fields.id]: 'string', code: 'string', mode: 'string?' })
    const app = enabled(c)
    const mode = checkMode(b.mode)
    const id = idOf(c, b[f.fields.id] as string, f.fields.id)
    checkAllowlist(app, id)
    await consumeCode(ctx.store, ctx.limits, { appId: app.id, channel: f.channel, identifier: id, code: b.code as string })
    const guest = await currentGuest(c, ctx)
    return c.json(await loginWithAccount(ctx, app, f.account(id), { mode, guestUserId: guest }))
  })

  api.post(`${f.base}/link`, async (c) => {
    const b = await body(c, { [f.fields.id]: 'string', code: 'string' })
    const auth = await requireAuth(c, ctx, { linking: true })
    const app = enabled(c)
    const id = idOf(c, b[f.fields.id] as string, f.fields.id)
    await consumeCode(ctx.store, ctx.limits, { appId: app.id, channel: f.channel, identifier: id, code: b.code as string })
    return c.json(await linkAccount(ctx, app, auth.userId, f.account(id)))
  })

  api.post(`${f.base}/update`, async (c) => {
    const b = await body(c, { [f.fields.updateOld]: 'string', [f.fields.updateNew]: 'string', code: 'string' })
    const auth = await requireAuth(c, ctx, { linking: true })
    const app = enabled(c)
    await requireAccountOfType(ctx, auth.userId, f.accountType)
    const oldId = idOf(c, b[f.fields.updateOld] as string, f.fields.updateOld)
    const newId = idOf(c, b[f.fields.updateNew] as string, f.fields.updateNew)
    // The code was sent to the new address.
    await consumeCode(ctx.store, ctx.limits, { appId: app.id, channel: f.channel, identifier: newId, code: b.code as string })
    return c.json(await updateAccount(ctx, app, auth.userId, f.accountType, oldId, f.account(newId)))
  })

  api.post(`${f.base}/unlink`, async (c) => {
    const b = await body(c, { [f.fields.unlink]: 'string' })
    const auth = await requireAuth(c, ctx)
    const app = c.get('app')
    const id = f.normalise(b[f.fields.unlink] as string, f.fields.unlink, { ...app, disablePlusEmails: false })
    return c.json(await unlinkAccount(ctx, app, auth.userId, f.accountType, id))
  })

  api.post(`${f.base}/transfer`, async (c) => {
    const b = await body(c, { nonce: 'string', [f.fields.id]: 'string' })
    const auth = await requireAuth(c, ctx, { linking: true })
    const app = c.get('app')
    const id = f.normalise(b[f.fields.id] as string, f.fields.id, { ...app, disablePlusEmails: false })
    return c.json(await transferAccount(ctx, app, auth.userId, b.nonce as string, f.accountType, id))
  })
}
