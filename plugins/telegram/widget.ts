/**
 * Telegram's login script (`telegram-widget.js`) from a configurable origin, and its
 * `Telegram.Login.auth({bot_id, request_access}, callback)`, which opens Telegram's login
 * popup (so it runs inside the user's click) and calls back with the signed result or false.
 * No inline code and no `data-onauth` (the widget would `eval` it): a strict CSP only needs the
 * origin in script-src. A blocked or unreachable script rejects; only Telegram is affected.
 */
export const TELEGRAM_ORIGIN = 'https://telegram.org'
export const TELEGRAM_SCRIPT_PATH = '/js/telegram-widget.js?22'
export const SCRIPT_TIMEOUT_MS = 15_000

export interface TelegramLogin {
  auth(options: { bot_id: number | string; request_access?: 'write'; lang?: string }, callback: (data: Record<string, string | number> | false) => void): void
}

export const telegramLogin = () => (globalThis as { Telegram?: { Login?: TelegramLogin } }).Telegram?.Login

let loading: Promise<void> | null = null

export function loadTelegramScript(origin: string): Promise<void> {
  if (telegramLogin()) return Promise.resolve()
  if (loading) return loading
  loading = new Promise<void>((resolve, reject) => {
    if (typeof document === 'undefined') return reject(new Error('No document to load the Telegram script into.'))
    const el = document.createElement('script')
    const fail = (message: string) => {
      clearTimeout(timer)
      loading = null
      el.remove()
      reject(new Error(message))
    }
    const timer = setTimeout(() => fail('The Telegram script did not load in time.'), SCRIPT_TIMEOUT_MS)
    el.src = `${origin.replace(/\/$/, '')}${TELEGRAM_SCRIPT_PATH}`
    el.async = true
    el.onload = () => (telegramLogin() ? (clearTimeout(timer), resolve()) : fail('The Telegram script defined no Telegram.Login.'))
    el.onerror = () => fail('The Telegram script could not be loaded (blocked or unreachable).')
    document.head.appendChild(el)
  })
  return loading
}
