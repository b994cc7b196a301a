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
import { definePlugin, normaliseFields, type PorticoPlugin, type TelegramAccount } from 'portico'
import type { TelegramApi, TelegramState } from './flow'
import { TelegramIcon } from './icon'

// The flow (the login script, Telegram's popup), calls, error views and texts load on first
// use: when the app is ready with Telegram on (the script loads then too), or with a claimed
// Mini App launch. Only their types are here.
export type TelegramTexts = typeof import('./strings').TELEGRAM_TEXTS
export type { TelegramCredential } from './calls'
export type { TelegramErrorCode } from './errors'
export type { TelegramLogin } from './widget'
export type { TelegramApi, TelegramState } from './flow'
export { TelegramIcon } from './icon'

/** The auth status screen (lazy). */
export const TELEGRAM_STATUS_SCREEN = 'telegram-status'
const STATUS_SCREEN = TELEGRAM_STATUS_SCREEN

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
  interface UserFields {
    telegram?: TelegramAccount
  }
}

export function telegram(options: TelegramOptions = {}): PorticoPlugin<'telegram'> {
  return definePlugin({
    id: 'telegram',
    kind: 'login',
    setup(ctx) {
      const state = ctx.store<TelegramState>({ script: 'idle', status: 'idle', error: null, credential: null })
      const loadFlow = ctx.lazy(() => import('./flow').then((m) => m.createTelegramApi(ctx, state, { origin: options.origin, botId: options.botId })))
      const api: TelegramApi = {
        state,
        ...loadFlow.methods('load', 'unlink'),
        // Inside the click: Telegram's popup opens now once the flow is in (it loads at ready).
        authorize: () => (loadFlow.current ? loadFlow.current.authorize() : loadFlow().then((f) => f.authorize())),
      }
      ctx.provide<TelegramApi>(api)
      ctx.methods.declare({
        id: 'telegram',
        displayName: 'Telegram',
        accountTypes: ['telegram'],
        userField: 'telegram',
        normalise: (raw) => normaliseFields(raw, 'telegram_user_id:S first_name:s last_name:s username:s photo_url:s'),
        transferLabel: 'Telegram profile',
        transfer: async (a, data) => {
          const credential = state.get().credential
          if (!credential) throw new Error('No Telegram login to transfer: log in with Telegram again.')
          return (await import('./calls')).transferTelegram(a, data.nonce, credential)
        },
        unlink: async (a, account) => (await import('./calls')).unlinkTelegram(a, String((account as { telegramUserId?: unknown }).telegramUserId ?? '')),
      })
      ctx.declareErrors(() =>
        Promise.all([import('./errors'), import('./strings')]).then(([e, s]) => e.telegramErrors(() => ctx.texts(s.TELEGRAM_TEXTS))),
      )
      ctx.screens.register({ id: STATUS_SCREEN, load: () => import('./screens/status') })
      const on = () => ctx.config.loginMethods.includes('telegram')

      ctx.hooks.loginMethods.tap('telegram', (list, { config }) =>
        config.loginMethods.includes('telegram')
          ? [
              ...list,
              {
                id: 'telegram',
                // The one text the landing needs before the texts load: TELEGRAM_TEXTS.label, with the app's override.
                label: textOverride(config.texts.telegram, 'label') ?? 'Telegram',
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
            await (await import('./flow')).loginWithMiniApp(ctx, state, data, !!options.disableSignup)
          },
        }
      })
      return () => ctx.events.off('ready', onReady)
    },
  })
}

/** An app's override of one text (`config.texts[<id>][key]`), as `ctx.texts` takes it: strings only. */
function textOverride(texts: Record<string, unknown> | undefined, key: string): string | undefined {
  const v = texts?.[key]
  return typeof v === 'string' ? v : undefined
}
