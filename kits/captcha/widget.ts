/**
 * The captcha controller: one widget at a time, rendered into the captcha screen's container
 * (or an off-screen one when no modal is open), with the spec's retries (3, first after 1 s,
 * then doubling) and its token (single use: taken by the first init call that carries it).
 * Turnstile and hCaptcha share the explicit-render API this drives:
 * `render(el, {sitekey, callback, 'error-callback', 'expired-callback'}) → id`, `reset(id)`, `remove(id)`.
 */
import type { PorticoError, Store } from 'portico'
import { FIRST_RETRY_DELAY_MS, MAX_RETRIES } from './constants'
import { loadScript } from './script'

export type CaptchaStatus = 'disabled' | 'ready' | 'loading' | 'success' | 'error'

export interface CaptchaState {
  status: CaptchaStatus
  token: string | null
  /** Failed attempts of the current widget (0-3). */
  retries: number
  error: PorticoError | null
}

export interface WidgetApi {
  render(container: HTMLElement, options: Record<string, unknown>): string
  reset(id?: string): void
  remove(id?: string): void
}

export interface CaptchaProvider {
  /** The plugin id: 'turnstile' | 'hcaptcha'. */
  id: string
  /** The script URL (explicit rendering), from a configurable origin. */
  scriptUrl: string
  /** The global the script defines. */
  widget(): WidgetApi | undefined
  /** Extra render options (theme, size ...). */
  renderOptions?: Record<string, unknown>
}

export { MAX_RETRIES, FIRST_RETRY_DELAY_MS, POLL_MS, WAIT_TIMEOUT_MS } from './constants'

export interface Controller {
  mount(container: HTMLElement): void
  unmount(): void
  /** Forget the token and failures; a mounted widget starts over. */
  reset(): void
  /** Take the token (single use). */
  take(): string | null
}

export function createController(
  provider: CaptchaProvider,
  state: Store<CaptchaState>,
  siteKey: () => string | null,
  failure: (afterRetries: boolean, cause?: unknown) => PorticoError,
): Controller {
  let container: HTMLElement | null = null
  let widgetId: string | null = null
  let timer: ReturnType<typeof setTimeout> | null = null
  let generation = 0

  const clearTimer = () => {
    if (timer) clearTimeout(timer)
    timer = null
  }

  const onError = (gen: number) => {
    if (gen !== generation) return
    const retries = state.get().retries
    if (retries >= MAX_RETRIES) {
      state.set({ status: 'error', token: null, error: failure(true) })
      return
    }
    state.set({ status: 'loading', retries: retries + 1, token: null })
    clearTimer()
    timer = setTimeout(() => {
      if (gen !== generation) return
      try {
        provider.widget()?.reset(widgetId ?? undefined)
      } catch (e) {
        state.set({ status: 'error', error: failure(true, e) })
      }
    }, FIRST_RETRY_DELAY_MS * 2 ** retries)
  }

  const render = async (el: HTMLElement) => {
    const gen = ++generation
    const key = siteKey()
    if (!key) {
      state.set({ status: 'error', error: failure(false, new Error('No captcha site key.')) })
      return
    }
    state.set({ status: 'loading', error: null })
    try {
      await loadScript(provider.scriptUrl, () => !!provider.widget())
    } catch (e) {
      if (gen === generation) state.set({ status: 'error', error: failure(true, e) })
      return
    }
    if (gen !== generation || container !== el) return
    try {
      widgetId = provider.widget()!.render(el, {
        ...provider.renderOptions,
        sitekey: key,
        callback: (token: string) => gen === generation && state.set({ status: 'success', token, error: null }),
        'error-callback': () => onError(gen),
        'expired-callback': () => gen === generation && state.set({ status: 'ready', token: null }),
      })
    } catch (e) {
      state.set({ status: 'error', error: failure(true, e) })
    }
  }

  const remove = () => {
    clearTimer()
    generation++
    if (widgetId !== null) {
      try {
        provider.widget()?.remove(widgetId)
      } catch {
        /* already gone */
      }
    }
    widgetId = null
  }

  return {
    mount(el) {
      if (container === el) return
      remove()
      container = el
      if (state.get().token) return // a token is waiting: nothing to solve
      void render(el)
    },
    unmount() {
      remove()
      container = null
      if (state.get().status === 'loading') state.set({ status: 'ready' })
    },
    reset() {
      state.set({ token: null, retries: 0, error: null, status: 'ready' })
      if (container) {
        const el = container
        remove()
        container = el
        void render(el)
      }
    },
    take() {
      const token = state.get().token
      if (token) state.set({ token: null, status: 'ready' })
      return token
    },
  }
}
