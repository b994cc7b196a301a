// The captcha kit's internal hub, for its own files and tests. The public surface is ./index.ts.
/**
 * portico/kits/captcha — the shared captcha kit of `turnstile()` and `hcaptcha()` (plugins
 * of kind 'captcha'). Not a plugin itself: a provider plugin calls `setupCaptcha(ctx, provider)`.
 *
 * - The captcha screen ('captcha-challenge') is inserted when captcha is on (app config
 *   `captcha_enabled` + site key), no token exists, the user is not authenticated and a modal
 *   is open. Headless (no modal): the widget renders in the host's container (`mount(el)`)
 *   or in a `div.portico-captcha-headless` appended to the body. It auto-continues about 1 s
 *   after success; an interactive challenge waits for the user.
 * - 3 retries, the first after 1 s (then 2 s, 4 s); a wait for a token polls every 200 ms up
 *   to 20 s (`captcha_timeout`).
 * - The token rides on every init call that takes one, through the kernel's `request` hook
 *   (`CAPTCHA_CALLS`: e-mail, SMS, SIWE, SIWS, OAuth, Farcaster `token`; Telegram
 *   `captcha_token`), and is used once.
 * - 'invalid_captcha' from the server shows 'Please try again.' and resets the captcha.
 */
import { lazyOnce, type PluginContext, type Store } from 'portico'
import type { CaptchaProvider, CaptchaState } from './widget'

// The token flow (widget controller, script), error views and texts load on first use, or at
// ready when captcha is on: only their types are here.
export type CaptchaTexts = typeof import('./strings').CAPTCHA_TEXTS
export { MAX_RETRIES, FIRST_RETRY_DELAY_MS, POLL_MS, WAIT_TIMEOUT_MS, SCRIPT_TIMEOUT_MS } from './constants'
export type { CaptchaProvider, CaptchaState, CaptchaStatus, WidgetApi, Controller } from './widget'

export const CAPTCHA_SCREEN = 'captcha-challenge'
/** About 1 s of 'Success' before the screen continues. */
export const AUTO_CONTINUE_MS = 1000

/** Init calls that take a captcha token, and the body field it rides in. */
export const CAPTCHA_CALLS: Readonly<Record<string, string>> = {
  '/passwordless/init': 'token',
  '/passwordless_sms/init': 'token',
  '/siwe/init': 'token',
  '/siws/init': 'token',
  '/oauth/init': 'token',
  '/farcaster/init': 'token',
  '/telegram/authenticate': 'captcha_token',
}

export interface CaptchaOptions {
  /** The site key; default the app config's `captcha_site_key`. */
  siteKey?: string
  /** The provider's script URL (explicit rendering); default its official one. */
  scriptUrl?: string
  /** More calls that take a token (`path → body field`). */
  calls?: Record<string, string>
}

/** What `kernel.plugin('turnstile' | 'hcaptcha')` returns. */
export interface CaptchaApi {
  readonly state: Store<CaptchaState>
  /** Whether captcha is on for this app (config flag and a site key). */
  enabled(): boolean
  /** A token: the waiting one, else the captcha screen (or an off-screen widget) solves one. */
  token(): Promise<string>
  /** Render the widget into `container` (the captcha screen does; a headless host may give its own). */
  mount(container: HTMLElement): void
  unmount(): void
  /** Forget the token and failures (after 'invalid_captcha'). */
  reset(): void
}

/** Set the captcha up for a provider plugin; returns its API (provided) and the teardown. */
export function setupCaptcha(ctx: PluginContext, provider: CaptchaProvider, options: CaptchaOptions = {}): { api: CaptchaApi; teardown: () => void } {
  const siteKey = () => options.siteKey ?? ctx.config.captchaSiteKey
  const enabled = () => !!ctx.config.captchaEnabled && !!siteKey()
  const state = ctx.store<CaptchaState>({ status: 'disabled', token: null, retries: 0, error: null })
  const calls = { ...CAPTCHA_CALLS, ...options.calls }
  let destroyed = false
  const load = lazyOnce(() => import('./flow').then((m) => m.createCaptchaFlow(ctx, provider, state, { siteKey, enabled, screen: CAPTCHA_SCREEN })))
  // A container handed over before the flow is in: mounted once it is (unless unmounted first).
  let pendingMount: HTMLElement | null = null

  const api: CaptchaApi = {
    state,
    enabled,
    token: async () => (await load()).token(),
    mount: (el) => {
      if (load.current) return load.current.mount(el)
      pendingMount = el
      load().then(
        (f) => {
          if (pendingMount !== el || destroyed) return
          pendingMount = null
          f.mount(el)
        },
        () => {},
      )
    },
    unmount: () => {
      pendingMount = null
      load.current?.unmount()
    },
    reset: () => load.current?.reset(),
  }
  ctx.provide<CaptchaApi>(api)
  ctx.declareErrors(() =>
    Promise.all([import('./errors'), import('./strings')]).then(([e, s]) =>
      e.captchaErrors(() => ctx.texts(s.CAPTCHA_TEXTS, 'captcha'), () => api.reset()),
    ),
  )
  ctx.screens.register({ id: CAPTCHA_SCREEN, load: () => import('./screens/challenge'), compact: true })

  ctx.hooks.configure.tap(ctx.id, (config) => {
    const key = options.siteKey ?? config.captchaSiteKey
    state.set({ status: config.captchaEnabled && key ? 'ready' : 'disabled' })
    if (config.captchaEnabled && !key) ctx.warn(`${ctx.id}: captcha is enabled but there is no site key (app config captcha_site_key or the plugin's siteKey option).`)
    return config
  })

  // The token rides on each init call that takes one (used once).
  ctx.hooks.request.tapPromise(ctx.id, async (req) => {
    const field = req.method === 'POST' ? calls[req.path] : undefined
    if (!field || !enabled()) return req
    const body = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {}
    if (body[field]) return req
    return { ...req, body: { ...body, [field]: await api.token() } }
  })

  // Inserted on the landing of a login flow when no token is waiting.
  let inserted = false
  const unsubscribe = ctx.screens.subscribe((nav) => {
    if (!nav.open) {
      inserted = false
      return
    }
    if (inserted || nav.intent !== 'login' || nav.current?.id !== 'landing' || nav.stack.length !== 1) return
    if (!enabled() || state.get().token || ctx.session.authenticated || state.get().status === 'error') return
    inserted = true
    queueMicrotask(() => {
      const now = ctx.screens.getState()
      if (now.open && now.current?.id === 'landing') void ctx.screens.open(CAPTCHA_SCREEN, { inserted: true })
    })
  })

  // Captcha on: the flow a first login needs loads once the app is ready.
  const onReady = () => {
    if (enabled()) void load().catch(() => {})
  }
  ctx.events.on('ready', onReady)

  ctx.hooks.logout.tapPromise(ctx.id, async () => api.reset())
  return {
    api,
    teardown: () => {
      destroyed = true
      pendingMount = null
      load.current?.teardown()
      ctx.events.off('ready', onReady)
      unsubscribe()
    },
  }
}

