/**
 * Telegram (spec part 1 section 7, 'Messaging-app login'): /telegram/authenticate
 * {captcha_token, telegram_auth_result | telegram_web_app_data, mode}, /telegram/link,
 * /telegram/unlink {telegram_user_id}, /telegram/transfer {nonce, telegram_auth_result |
 * telegram_web_app_data}. The data is checked with the app's bot token (server only; see
 * service.ts) before anything is written. Telegram accounts are transferable.
 */
import { z } from 'zod'
import { requireCaptcha } from '../../captcha'
import { methodEnabled, type AppSettings } from '../../config'
import { type C, type ServerCtx } from '../../core/context'
import { errors } from '../../core/errors'
import { linkAccount, loginWithAccount, transferAccount, unlinkAccount, type AccountInput } from '../../core/identity'
import { checkWebAppData, checkWidgetData, telegramBotToken } from './service'
import { id, mode, noControl, optId } from '../../core/validate'
import { router } from '../../core/router'
import { currentGuest } from '../../core/auth'
import { notAllowed } from './errors'

const field = z.union([
  z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  z.string().max(1024, 'Must be at most 1024 characters').refine(noControl, 'Must not contain control characters'),
])
/** The widget's result: its fields as Telegram sent them (all of them enter the hash). */
const authResult = z
  .record(z.string().regex(/^[a-z_]{1,32}$/, 'Unexpected field name'), field)
  .refine((r) => Object.keys(r).length <= 16, 'Too many fields')
  .nullish()
/**
 * Mini App launch data: the raw `initData` query string (the spec's form), or the published
 * client's form, the same fields parsed into an object (each value decoded once, `user` still
 * its JSON text). Both are checked over the same fields.
 */
const webAppData = z
  .union([
    z.string().max(4096, 'Must be at most 4096 characters'),
    z
      .record(z.string().regex(/^[a-z_]{1,32}$/, 'Unexpected field name'), field)
      .refine((r) => Object.keys(r).length <= 16, 'Too many fields'),
  ])
  .nullish()

export function telegramRoutes(ctx: ServerCtx) {
  const r = router(ctx)

  const botToken = (app: AppSettings) => {
    if (!methodEnabled(app, 'telegram')) throw notAllowed()
    const token = telegramBotToken(app)
    if (!token) throw notAllowed()
    return token
  }

  /** Checks the data (exactly one of the two forms) and returns the account to write. */
  const verify = (c: C, b: { telegram_auth_result?: Record<string, string | number> | null; telegram_web_app_data?: string | Record<string, string | number> | null }): AccountInput => {
    const app = c.get('app')
    const token = botToken(app)
    const widget = b.telegram_auth_result ?? null
    const webApp = b.telegram_web_app_data ?? null
    if ((widget === null) === (webApp === null)) {
      throw errors.invalidData('Send exactly one of telegram_auth_result and telegram_web_app_data', undefined, 422)
    }
    const opts = { maxAgeS: app.telegramAuthMaxAgeS ?? undefined }
    const check = widget ? checkWidgetData(widget, token, opts) : checkWebAppData(webApp!, token, opts)
    if (!check.ok) {
      throw errors.invalidCredentials(
        check.reason === 'stale' ? 'Telegram auth data is too old; log in with Telegram again.' : 'Telegram auth data could not be verified.',
      )
    }
    const u = check.user
    return {
      type: 'telegram',
      identifier: u.id,
      data: { telegram_user_id: u.id, first_name: u.first_name, last_name: u.last_name, username: u.username, photo_url: u.photo_url },
      transferable: true,
      linkMethod: 'telegram',
      displayName: u.username ?? u.first_name ?? u.id,
    }
  }

  r.post('/telegram/authenticate', { summary: 'Telegram: log in with login-widget or Mini App data', body: z.object({ captcha_token: optId(4096), telegram_auth_result: authResult, telegram_web_app_data: webAppData, mode }), auth: 'optional' }, async (c, { body: b }) => {
      const app = c.get('app')
      botToken(app)
      const acct = verify(c, b)
      await requireCaptcha(c, ctx, b.captcha_token)
      const guest = await currentGuest(c, ctx)
      return c.json(await loginWithAccount(ctx, app, acct, { mode: b.mode ?? undefined, guestUserId: guest }))
    })

  r.post('/telegram/link', { summary: 'Telegram: link an account', body: z.object({ telegram_auth_result: authResult, telegram_web_app_data: webAppData }), auth: 'link' }, async (c, { body: b, auth }) => {
      const acct = verify(c, b)
      return c.json(await linkAccount(ctx, c.get('app'), auth.userId, acct))
    })

  r.post('/telegram/unlink', { summary: 'Telegram: unlink the account', body: z.object({ telegram_user_id: id(32) }), auth: 'bearer' }, async (c, { body: b, auth }) => {
    const uid = String(b.telegram_user_id).trim()
    if (!/^\d{1,20}$/.test(uid)) throw errors.invalidData('telegram_user_id: Must be a Telegram user id', { fields: { telegram_user_id: 'Must be a Telegram user id' } }, 422)
    return c.json(await unlinkAccount(ctx, c.get('app'), auth.userId, 'telegram', uid))
  })

  r.post('/telegram/transfer', { summary: 'Telegram: move the account from another user', body: z.object({ nonce: id(128), telegram_auth_result: authResult, telegram_web_app_data: webAppData }), auth: 'link' }, async (c, { body: b, auth }) => {
      const acct = verify(c, b)
      return c.json(await transferAccount(ctx, c.get('app'), auth.userId, b.nonce, 'telegram', acct.identifier))
    })
  return r.app
}
