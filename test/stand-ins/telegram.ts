/**
 * Local stand-in for Telegram (tests only): signs login-widget results and Mini App launch data
 * with a test bot token exactly as Telegram documents it, and serves a stand-in of
 * `telegram-widget.js` whose `Telegram.Login.auth(options, callback)` answers with freshly
 * signed data (as the real popup's postMessage would).
 */
import { createHash, createHmac } from 'node:crypto'

/** A test bot token (never a real bot). Its bot id is the part before ':'. */
export const TEST_BOT_TOKEN = '7000000001:AAE_portico-test-bot-token-000000000000'
export const TEST_BOT_ID = 7000000001
export const TEST_BOT_NAME = 'portico_test_bot'

export interface TgUser {
  id: number
  first_name: string
  last_name?: string
  username?: string
  photo_url?: string
}

const dcs = (o: Record<string, string>) =>
  Object.keys(o)
    .filter((k) => k !== 'hash')
    .sort()
    .map((k) => `${k}=${o[k]}`)
    .join('\n')

/** The login widget's result for `user`, signed with `botToken`. */
export function signWidget(user: TgUser, botToken = TEST_BOT_TOKEN, authDate = Math.floor(Date.now() / 1000)) {
  const data: Record<string, string | number> = { ...user, auth_date: authDate }
  const strings = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)]))
  const hash = createHmac('sha256', createHash('sha256').update(botToken).digest()).update(dcs(strings)).digest('hex')
  return { ...data, hash }
}

/** Mini App launch data (`initData`) for `user`, signed with `botToken`. */
export function signWebApp(user: TgUser, botToken = TEST_BOT_TOKEN, authDate = Math.floor(Date.now() / 1000)) {
  const fields: Record<string, string> = { auth_date: String(authDate), query_id: 'AAH-test-query', user: JSON.stringify(user) }
  const key = createHmac('sha256', 'WebAppData').update(botToken).digest()
  const hash = createHmac('sha256', key).update(dcs(fields)).digest('hex')
  return new URLSearchParams({ ...fields, hash }).toString()
}

/**
 * The stand-in widget script: `Telegram.Login.auth({bot_id}, cb)` calls back with `result`
 * (signed by the test, or `false` for a cancelled login), after a task, like the popup.
 */
export function widgetScript(result: object | false): string {
  return `(() => {
  const result = ${JSON.stringify(result)};
  window.Telegram = window.Telegram || {};
  window.Telegram.Login = {
    auth(options, callback) {
      window.__telegramAuthCalls = (window.__telegramAuthCalls || 0) + 1;
      window.__telegramLastBotId = options && options.bot_id;
      setTimeout(() => callback(result), 10);
    },
  };
})();`
}
