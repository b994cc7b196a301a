/** Telegram's API calls (part 1 section 7, 'Messaging-app login'). */
import type { Api, WireAuthResponse, WireUser } from 'portico'

/** Login-widget result (`{id, first_name, ..., auth_date, hash}`) or Mini App launch data. */
export type TelegramCredential = { telegram_auth_result: Record<string, string | number> } | { telegram_web_app_data: string }

/** POST /telegram/authenticate {telegram_auth_result | telegram_web_app_data, mode} (captcha_token: the request hook). */
export function authenticateTelegram(api: Api, credential: TelegramCredential, mode: 'login-or-sign-up' | 'no-signup' = 'login-or-sign-up') {
  return api.post<WireAuthResponse>('/telegram/authenticate', { ...credential, mode })
}

/** POST /telegram/link {telegram_auth_result | telegram_web_app_data} */
export function linkTelegram(api: Api, credential: TelegramCredential) {
  return api.post<WireAuthResponse | { user: WireUser }>('/telegram/link', credential)
}

/** POST /telegram/unlink {telegram_user_id} */
export function unlinkTelegram(api: Api, telegramUserId: string) {
  return api.post<{ user: WireUser }>('/telegram/unlink', { telegram_user_id: telegramUserId })
}

/** POST /telegram/transfer {nonce, telegram_auth_result | telegram_web_app_data} */
export function transferTelegram(api: Api, nonce: string, credential: TelegramCredential) {
  return api.post<WireAuthResponse | { user: WireUser }>('/telegram/transfer', { nonce, ...credential })
}
