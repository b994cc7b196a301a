/**
 * The captcha's token flow, loaded on first use (./index.ts keeps the state, the hooks and the
 * screen insertion): the widget controller, the wait for a token, the headless container.
 */
import type { PluginContext, Store } from 'portico'
import { POLL_MS, WAIT_TIMEOUT_MS } from './constants'
import { captchaError } from './errors'
import { CAPTCHA_TEXTS } from './strings'
import { createController, type CaptchaProvider, type CaptchaState } from './widget'

export interface CaptchaFlow {
  token(): Promise<string>
  mount(container: HTMLElement): void
  unmount(): void
  reset(): void
  teardown(): void
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

export function createCaptchaFlow(
  ctx: Pick<PluginContext, 'texts' | 'screens'>,
  provider: CaptchaProvider,
  state: Store<CaptchaState>,
  settings: { siteKey: () => string | null; enabled: () => boolean; screen: string },
): CaptchaFlow {
  const texts = () => ctx.texts(CAPTCHA_TEXTS, 'captcha')
  const { enabled, screen } = settings
  const controller = createController(provider, state, settings.siteKey, (afterRetries, cause) => {
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

  const flow: CaptchaFlow = {
    async token() {
      if (!enabled()) throw captchaError('captcha_disabled', texts())
      if (state.get().status === 'error') controller.reset()
      if (!state.get().token) {
        const nav = ctx.screens.getState()
        if (nav.open) {
          if (nav.current?.id !== screen) void ctx.screens.open(screen, { inserted: true })
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
      for (let i = 0; i < 30 && ctx.screens.getState().current?.id === screen; i++) await sleep(100)
      return controller.take() ?? (await flow.token())
    },
    mount: (el) => {
      if (el.closest('[role=dialog]') === null) hostContainer = el
      controller.mount(el)
    },
    unmount: () => controller.unmount(),
    reset: () => controller.reset(),
    teardown: () => {
      controller.unmount()
      offscreen?.remove()
    },
  }
  return flow
}
