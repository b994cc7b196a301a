/**
 * portico/plugins/captcha — the shared captcha base of `turnstile()` and `hcaptcha()` (plugins
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
import type { PluginContext, Store } from 'portico'
import { captchaError, captchaErrors } from './errors'
import { CAPTCHA_TEXTS } from './strings'
import { createController, POLL_MS, WAIT_TIMEOUT_MS, type CaptchaProvider, type CaptchaState, type Controller } from './widget'

export { CAPTCHA_TEXTS } from './strings'
export { captchaError, captchaErrors } from './errors'
export { loadScript, SCRIPT_TIMEOUT_MS } from './script'
export { MAX_RETRIES, FIRST_RETRY_DELAY_MS, POLL_MS, WAIT_TIMEOUT_MS } from './widget'
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

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** Set the captcha up for a provider plugin; returns its API (provided) and the teardown. */
export function setupCaptcha(ctx: PluginContext, provider: CaptchaProvider, options: CaptchaOptions = {}): { api: CaptchaApi; teardown: () => void } {
  const texts = () => ctx.texts(CAPTCHA_TEXTS, 'captcha')
  const siteKey = () => options.siteKey ?? ctx.config.captchaSiteKey
  const enabled = () => !!ctx.config.captchaEnabled && !!siteKey()
  const state = ctx.store<CaptchaState>({ status: 'disabled', token: null, retries: 0, error: null })
  const calls = { ...CAPTCHA_CALLS, ...options.calls }
  const controller: Controller = createController(provider, state, siteKey, (afterRetries, cause) => {
    const e = captchaError('captcha_failure', texts(), afterRetries)
    if (cause !== undefined) (e as { cause?: unknown }).cause = cause
    return e
  })
  let offscreen: HTMLElement | null = null
  let hostContainer: HTMLElement | null = null

  const waitForToken = async (): Promise<string> => {
    const started = Date.now()
    for (;;) {
      const s = state.get()
      if (s.token) return s.token
      if (s.status === 'error' && s.error) throw s.error
      if (Date.now() - started >= WAIT_TIMEOUT_MS) {
        controller.reset()
        throw captchaError('captcha_timeout', texts())
      }
      await sleep(POLL_MS)
    }
  }

  const api: CaptchaApi = {
    state,
    enabled,
    async token() {
      if (!enabled()) throw captchaError('captcha_disabled', texts())
      if (state.get().status === 'error') controller.reset()
      if (!state.get().token) {
        const nav = ctx.screens.getState()
        if (nav.open) {
          if (nav.current?.id !== CAPTCHA_SCREEN) void ctx.screens.open(CAPTCHA_SCREEN, { inserted: true })
          else if (state.get().status !== 'loading') controller.reset()
        } else if (typeof document !== 'undefined') {
          // Headless: the host's container (api.mount) if it gave one, else one at the end of the body.
          const target = hostContainer?.isConnected ? hostContainer : (offscreen ??= Object.assign(document.createElement('div'), { className: 'portico-captcha-headless' }))
          if (!target.isConnected) document.body.appendChild(target)
          if (state.get().status !== 'loading') controller.unmount()
          controller.mount(target)
        }
      }
      await waitForToken()
      // The captcha screen shows 'Success' for about a second, then goes back by itself.
      for (let i = 0; i < 30 && ctx.screens.getState().current?.id === CAPTCHA_SCREEN; i++) await sleep(100)
      return controller.take() ?? (await api.token())
    },
    mount: (el) => {
      if (el.closest('[role=dialog]') === null) hostContainer = el
      controller.mount(el)
    },
    unmount: () => controller.unmount(),
    reset: () => controller.reset(),
  }
  ctx.provide<CaptchaApi>(api)
  ctx.declareErrors(captchaErrors(texts, () => controller.reset()))
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

  ctx.hooks.logout.tapPromise(ctx.id, async () => controller.reset())
  return {
    api,
    teardown: () => {
      controller.unmount()
      offscreen?.remove()
      unsubscribe()
    },
  }
}

