/**
 * Telegram login data checks (https://core.telegram.org/widgets/login#checking-authorization,
 * https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app):
 *
 * - Login widget: data-check-string = every received field but `hash`, as `key=value` sorted by
 *   key and joined by '\n'; hash = hex HMAC-SHA-256(key = SHA-256(bot token), data-check-string).
 * - Mini App launch data (`initData`, a query string): the same data-check-string over its
 *   fields; key = HMAC-SHA-256(key = 'WebAppData', bot token).
 *
 * Both refuse an `auth_date` older than the app's limit (default a day) or in the future.
 * node:crypto does the hashing; the comparison is constant-time.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import type { AppSettings } from '../../config'

export const DEFAULT_TELEGRAM_MAX_AGE_S = 86_400
/** Clock skew tolerated for an auth_date in the future. */
const FUTURE_SKEW_S = 60

export interface TelegramUser {
  id: string
  first_name: string | null
  last_name: string | null
  username: string | null
  photo_url: string | null
}

export type TelegramCheck =
  | { ok: true; user: TelegramUser; authDate: number }
  | { ok: false; reason: 'hash' | 'stale' | 'malformed' }

export function telegramBotToken(app: AppSettings, env: NodeJS.ProcessEnv = process.env): string | null {
  if (app.telegramBotToken) return app.telegramBotToken
  if (app.telegramBotTokenEnv) return env[app.telegramBotTokenEnv] || null
  return null
}

const dataCheckString = (fields: [string, string][]) =>
  fields
    .filter(([k]) => k !== 'hash')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('\n')

function sameHex(expected: Buffer, hash: string): boolean {
  if (!/^[0-9a-f]{64}$/i.test(hash)) return false
  return timingSafeEqual(expected, Buffer.from(hash, 'hex'))
}

function fresh(authDate: number, maxAgeS: number, nowS: number): boolean {
  return Number.isSafeInteger(authDate) && authDate > 0 && nowS - authDate <= maxAgeS && authDate - nowS <= FUTURE_SKEW_S
}

const strOrNull = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null)

/** The login widget's result object (`{id, first_name, ..., auth_date, hash}`). */
export function checkWidgetData(
  data: Record<string, string | number>,
  botToken: string,
  opts: { maxAgeS?: number; nowS?: number } = {},
): TelegramCheck {
  const hash = data.hash
  if (typeof hash !== 'string' || data.id === undefined || data.auth_date === undefined) return { ok: false, reason: 'malformed' }
  const fields = Object.entries(data).map(([k, v]) => [k, String(v)] as [string, string])
  const key = createHash('sha256').update(botToken).digest()
  const expected = createHmac('sha256', key).update(dataCheckString(fields)).digest()
  if (!sameHex(expected, hash)) return { ok: false, reason: 'hash' }
  const authDate = Number(data.auth_date)
  if (!fresh(authDate, opts.maxAgeS ?? DEFAULT_TELEGRAM_MAX_AGE_S, opts.nowS ?? Math.floor(Date.now() / 1000))) return { ok: false, reason: 'stale' }
  const id = String(data.id)
  if (!/^\d{1,20}$/.test(id)) return { ok: false, reason: 'malformed' }
  return { ok: true, authDate, user: telegramUser(id, data) }
}

/** The user a checked login or launch names (its id checked already). */
const telegramUser = (id: string, u: Record<string, unknown>) => ({
  id,
  first_name: strOrNull(u.first_name),
  last_name: strOrNull(u.last_name),
  username: strOrNull(u.username),
  photo_url: strOrNull(u.photo_url),
})

/**
 * Mini App launch data: the raw `initData` query string (`tgWebAppData`), or its fields already
 * parsed into an object (each value decoded once, as the published client sends them).
 */
export function checkWebAppData(
  initData: string | Record<string, string | number>,
  botToken: string,
  opts: { maxAgeS?: number; nowS?: number } = {},
): TelegramCheck {
  let fields: [string, string][]
  if (typeof initData === 'string') {
    try {
      fields = [...new URLSearchParams(initData).entries()]
    } catch {
      return { ok: false, reason: 'malformed' }
    }
  } else {
    fields = Object.entries(initData).map(([k, v]) => [k, String(v)])
  }
  const params = new Map(fields)
  const hash = params.get('hash')
  const userJson = params.get('user')
  if (!hash || !userJson || !params.get('auth_date') || params.size !== fields.length) {
    return { ok: false, reason: 'malformed' }
  }
  const key = createHmac('sha256', 'WebAppData').update(botToken).digest()
  const expected = createHmac('sha256', key).update(dataCheckString(fields)).digest()
  if (!sameHex(expected, hash)) return { ok: false, reason: 'hash' }
  const authDate = Number(params.get('auth_date'))
  if (!fresh(authDate, opts.maxAgeS ?? DEFAULT_TELEGRAM_MAX_AGE_S, opts.nowS ?? Math.floor(Date.now() / 1000))) return { ok: false, reason: 'stale' }
  let u: Record<string, unknown>
  try {
    u = JSON.parse(userJson)
  } catch {
    return { ok: false, reason: 'malformed' }
  }
  const id = typeof u?.id === 'number' || typeof u?.id === 'string' ? String(u.id) : ''
  if (!/^\d{1,20}$/.test(id)) return { ok: false, reason: 'malformed' }
  return { ok: true, authDate, user: telegramUser(id, u) }
}
