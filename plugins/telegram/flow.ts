/** Telegram's state and API (`kernel.plugin('telegram')`). */
import { PorticoError, toPorticoError, type PluginContext, type Store, type User } from 'portico'
import { authenticateTelegram, unlinkTelegram, type TelegramCredential } from './calls'
import { telegramError } from './errors'
import { TELEGRAM_TEXTS } from './strings'
import { TELEGRAM_ORIGIN, loadTelegramScript, telegramLogin } from './widget'

export const STATUS_SCREEN = 'telegram-status'

export interface TelegramState {
  /** The login script: not needed yet, loading, ready, or unavailable (blocked, unreachable, no bot). */
  script: 'idle' | 'loading' | 'ready' | 'unavailable'
  /** The login in progress. */
  status: 'idle' | 'waiting' | 'verifying' | 'success' | 'error'
  error: PorticoError | null
  /** The last verified-by-Telegram credential (sent again for an account transfer). */
  credential: TelegramCredential | null
}

export interface TelegramApi {
  readonly state: Store<TelegramState>
  /** Load Telegram's login script (done at start-up when Telegram is on; never throws). */
  load(): Promise<boolean>
  /** Open Telegram's login popup now (call it inside the user's click); resolves with its signed result. */
  authorize(): Promise<TelegramCredential>
  /** Unlink the user's Telegram account. */
  unlink(telegramUserId: string): Promise<User>
}

export interface TelegramSettings {
  /** Default TELEGRAM_ORIGIN. */
  origin?: string
  botId?: number | string
}

export function createTelegramApi(ctx: PluginContext, state: Store<TelegramState>, settings: TelegramSettings): TelegramApi {
  const texts = () => ctx.texts(TELEGRAM_TEXTS)
  const origin = settings.origin ?? TELEGRAM_ORIGIN
  const botId = () => settings.botId ?? (ctx.config.server as { telegram_bot_id?: number | string } | null)?.telegram_bot_id ?? null
  const api: TelegramApi = {
    state,
    async load() {
      if (!ctx.config.telegramBotName && !botId()) {
        state.set({ script: 'unavailable' })
        return false
      }
      if (state.get().script === 'ready' && telegramLogin()) return true
      state.set({ script: 'loading' })
      try {
        await loadTelegramScript(origin)
        state.set({ script: 'ready' })
        return true
      } catch (e) {
        state.set({ script: 'unavailable' })
        ctx.warn(`telegram: ${(e as Error).message} Telegram login is off until it loads (script-src must allow ${origin}).`)
        return false
      }
    },
    authorize() {
      const login = telegramLogin()
      const bot = botId()
      if (!login || !bot) {
        // Try again in the background, so that Retry can work once the script arrives.
        if (state.get().script !== 'loading') void api.load()
        return Promise.reject(telegramError('telegram_not_initialized', texts()))
      }
      return new Promise<TelegramCredential>((resolve, reject) => {
        try {
          login.auth({ bot_id: bot, request_access: 'write' }, (data) => {
            if (!data || typeof data !== 'object') return reject(telegramError('telegram_auth_failed', texts()))
            const credential = { telegram_auth_result: data }
            state.set({ credential })
            resolve(credential)
          })
        } catch (e) {
          reject(telegramError('telegram_auth_failed', texts(), e))
        }
      })
    },
    async unlink(telegramUserId) {
      try {
        const res = await unlinkTelegram(ctx.api, telegramUserId)
        return ctx.session.setUser(res.user)
      } catch (e) {
        throw toPorticoError(e)
      }
    },
  }
  return api
}

/** A Mini App launch claimed at start-up (`#tgWebAppData=...`): log in with its signed data. */
export async function loginWithMiniApp(
  ctx: Pick<PluginContext, 'api' | 'completeLogin'>,
  state: Store<TelegramState>,
  data: string,
  disableSignup: boolean,
): Promise<void> {
  const credential = { telegram_web_app_data: data }
  state.set({ status: 'verifying', credential })
  try {
    const res = await authenticateTelegram(ctx.api, credential, disableSignup ? 'no-signup' : 'login-or-sign-up')
    await ctx.completeLogin(res, { method: 'telegram', intent: 'login' })
    state.set({ status: 'success', error: null })
  } catch (e) {
    state.set({ status: 'error', error: e as never })
    throw e
  }
}
