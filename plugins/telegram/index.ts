/**
 * portico/plugins/telegram — log in with Telegram.
 *
 * ```ts
 * import { telegram } from 'portico/plugins/telegram'
 * createPortico({ appId, plugins: [email(), telegram()] })
 * ```
 *
 * - Login widget: the bot comes from the app settings (`telegram_bot_name`, and its id
 *   `telegram_bot_id`, or the `botId` option); Telegram's login script loads from
 *   `https://telegram.org` (`origin` overrides it) when Telegram is on. The 'Telegram' landing
 *   row opens Telegram's popup inside the click and the auth status screen ('telegram-status',
 *   with Retry) verifies the signed result with the server.
 * - Mini App: launch data in the page address (`#tgWebAppData=...`) is claimed through the
 *   kernel's `returnPath` hook (stripped from the address) and logs in.
 * - A blocked or unreachable script, or no bot, turns off only Telegram ('Telegram was not
 *   initialized', Retry); start-up never waits for it.
 * - Account type 'telegram' → `user.telegram` (telegramUserId, firstName, lastName, username,
 *   photoUrl); transferable ('Telegram profile').
 */
import { definePlugin, normaliseFields, type PorticoPlugin } from 'portico'
import { authenticateTelegram, transferTelegram, unlinkTelegram } from './calls'
import { telegramErrors } from './errors'
import { createTelegramApi, STATUS_SCREEN, type TelegramApi, type TelegramState } from './flow'
import { TelegramIcon } from './icon'
import { TELEGRAM_TEXTS } from './strings'
import { TELEGRAM_ORIGIN } from './widget'

export { TELEGRAM_TEXTS } from './strings'
export { authenticateTelegram, linkTelegram, unlinkTelegram, transferTelegram, type TelegramCredential } from './calls'
export { telegramError, telegramErrorText, type TelegramErrorCode } from './errors'
export { TELEGRAM_ORIGIN, TELEGRAM_SCRIPT_PATH, type TelegramLogin } from './widget'
export { STATUS_SCREEN as TELEGRAM_STATUS_SCREEN, type TelegramApi, type TelegramState } from './flow'
export { TelegramIcon } from './icon'

/** Hash parameters of a Mini App launch (removed from the address when claimed). */
export const MINI_APP_PARAMS = [
  'tgWebAppData',
  'tgWebAppVersion',
  'tgWebAppPlatform',
  'tgWebAppThemeParams',
  'tgWebAppBotInline',
  'tgWebAppStartParam',
  'tgWebAppShowSettings',
  'tgWebAppFullscreen',
  'tgWebAppDefaultColors',
]

export interface TelegramOptions {
  /** Origin of Telegram's login script. Default 'https://telegram.org' (a self-hosted copy or a test stand-in otherwise). */
  origin?: string
  /** The bot's numeric id (default: the app settings' `telegram_bot_id`). */
  botId?: number | string
  /** Refuse new users (mode 'no-signup'). Default false. */
  disableSignup?: boolean
  /** Log in with Mini App launch data found in the page address. Default true. */
  miniApp?: boolean
}

declare module 'portico' {
  interface PluginApis {
    telegram: TelegramApi
  }
}

export function telegram(options: TelegramOptions = {}): PorticoPlugin<'telegram'> {
  return definePlugin({
    id: 'telegram',
    kind: 'login',
    setup(ctx) {
      const texts = () => ctx.texts(TELEGRAM_TEXTS)
      const state = ctx.store<TelegramState>({ script: 'idle', status: 'idle', error: null, credential: null })
      const api = createTelegramApi(ctx, state, { origin: options.origin ?? TELEGRAM_ORIGIN, botId: options.botId })
      ctx.provide<TelegramApi>(api)
      ctx.methods.declare({
        id: 'telegram',
        displayName: 'Telegram',
        accountTypes: ['telegram'],
        userField: 'telegram',
        normalise: (raw) => normaliseFields(raw, 'telegram_user_id:S first_name:s last_name:s username:s photo_url:s'),
        transferLabel: 'Telegram profile',
        transfer: (a, data) => {
          const credential = state.get().credential
          if (!credential) return Promise.reject(new Error('No Telegram login to transfer: log in with Telegram again.'))
          return transferTelegram(a, data.nonce, credential)
        },
        unlink: (a, account) => unlinkTelegram(a, String((account as { telegramUserId?: unknown }).telegramUserId ?? '')),
      })
      ctx.declareErrors(telegramErrors(texts))
      ctx.screens.register({ id: STATUS_SCREEN, load: () => import('./screens/status') })
      const on = () => ctx.config.loginMethods.includes('telegram')

      ctx.hooks.loginMethods.tap('telegram', (list, { config }) =>
        config.loginMethods.includes('telegram')
          ? [
              ...list,
              {
                id: 'telegram',
                label: texts().label,
                group: 'web2' as const,
                icon: TelegramIcon,
                screen: STATUS_SCREEN,
                params: { disableSignup: !!options.disableSignup },
                // Inside the click: Telegram's popup opens now, then the status screen.
                start: () => {
                  ctx.analytics('telegram_login_started')
                  const result = api.authorize()
                  result.catch(() => {}) // the status screen shows it
                  void ctx.screens.open(STATUS_SCREEN, { disableSignup: !!options.disableSignup, pending: { result } })
                },
              },
            ]
          : list,
      )

      // Load Telegram's script once the app config says Telegram is on (never blocks start-up).
      const onReady = () => {
        if (on()) void api.load()
      }
      ctx.events.on('ready', onReady)

      // Mini App launch data: #tgWebAppData=<initData>&tgWebAppVersion=...
      ctx.hooks.returnPath.tap('telegram', ({ url }) => {
        if (options.miniApp === false || !url.hash.includes('tgWebAppData=')) return undefined
        const data = new URLSearchParams(url.hash.slice(1)).get('tgWebAppData')
        if (!data) return undefined
        return {
          params: [],
          hashParams: MINI_APP_PARAMS,
          finish: async () => {
            if (!on()) return
            if (ctx.session.authenticated && !ctx.session.user?.isGuest) return
            const credential = { telegram_web_app_data: data }
            state.set({ status: 'verifying', credential })
            try {
              const res = await authenticateTelegram(ctx.api, credential, options.disableSignup ? 'no-signup' : 'login-or-sign-up')
              await ctx.completeLogin(res, { method: 'telegram', intent: 'login' })
              state.set({ status: 'success', error: null })
            } catch (e) {
              state.set({ status: 'error', error: e as never })
              throw e
            }
          },
        }
      })
      return () => ctx.events.off('ready', onReady)
    },
  })
}
