/**
 * Hooks for screens: `useScreen()` (params and navigation of the screen being rendered) and
 * `useCompleteLogin()` (finish a login or link the same way in every plugin).
 */
import { createContext, useCallback, useContext, useMemo } from 'react'
import { isPorticoError, type AuthResult, type ErrorContext, type Intent, type LoginMeta, type Portico, type ScreenEntry, type WireAuthResponse, type WireUser } from 'portico'
import { CLOSE_DELAY_MS } from './internal/attach'
import { useKernel, useUiAttachment } from './context'

/** Props every screen component receives. */
export interface ScreenProps<P extends Record<string, unknown> = Record<string, unknown>> {
  /** The params passed to `screens.open(id, params)`. */
  params: P
  /** The screen id. */
  id: string
}

interface ScreenCtx {
  entry: ScreenEntry
  depth: number
}

export const ScreenContext = createContext<ScreenCtx | null>(null)

/** Return to the landing screen (pops the stack down to it, or replaces the current screen). */
export function goToLanding(kernel: Portico) {
  const nav = kernel.screens
  const stack = nav.getState().stack
  if (!stack.some((s) => s.id === 'landing')) return nav.replace('landing', {})
  while (nav.getState().open && nav.getState().current?.id !== 'landing') nav.back()
}

/** The current screen: params, intent and navigation (stable functions). */
export function useScreen<P extends Record<string, unknown> = Record<string, unknown>>() {
  const kernel = useKernel()
  const ctx = useContext(ScreenContext)
  const nav = kernel.screens
  const back = useCallback(() => nav.back(), [nav])
  const close = useCallback((value?: unknown) => nav.close(value), [nav])
  const dismiss = useCallback(() => nav.dismiss(), [nav])
  const error = useCallback((err: unknown, context?: ErrorContext) => nav.error(err, context), [nav])
  const open = useCallback((id: string, params?: Record<string, unknown>) => void nav.open(id, params), [nav])
  const replace = useCallback((id: string, params?: Record<string, unknown>) => nav.replace(id, params), [nav])
  const landing = useCallback(() => goToLanding(kernel), [kernel])
  return useMemo(
    () => ({
      id: ctx?.entry.id ?? '',
      params: (ctx?.entry.params ?? {}) as P,
      /** 'login' | 'link' | 'update' */
      intent: (nav.getState().intent ?? 'login') as Intent,
      /** True when there is a screen to go back to. */
      canGoBack: (ctx?.depth ?? 0) > 0,
      canClose: nav.canClose,
      back,
      close,
      dismiss,
      error,
      open,
      replace,
      landing,
    }),
    [ctx, nav, back, close, dismiss, error, open, replace, landing],
  )
}

export interface CompleteOptions extends LoginMeta {
  /** Wait before closing (default 1400 ms, part 1 section 9). */
  closeDelayMs?: number
}

/**
 * Finish a login, link or update from a screen: stores the session (or the new user record),
 * runs the `authenticated` chain (terms consent, wallet creation), then closes the modal with
 * success after 1400 ms. Resolves null when the user left during the chain (declined terms).
 *
 * ```ts
 * const complete = useCompleteLogin()
 * await complete(await api.post('/passwordless/authenticate', body), { method: 'email' })
 * ```
 */
export function useCompleteLogin() {
  const kernel = useKernel()
  const ui = useUiAttachment()
  return useCallback(
    async (response: WireAuthResponse | { user: WireUser }, meta: CompleteOptions = {}): Promise<AuthResult | null> => {
      const nav = kernel.screens
      const intent = meta.intent ?? nav.getState().intent ?? 'login'
      const before = nav.getState().current
      let result: AuthResult
      try {
        const full = response as Partial<WireAuthResponse>
        if (intent !== 'login' && !full.token && !full.refresh_token) {
          result = { user: kernel.session.setUser(response.user), isNewUser: false }
        } else {
          result = await kernel.completeLogin(response as WireAuthResponse, { ...meta, intent })
        }
      } catch (e) {
        if (isPorticoError(e, 'exited_auth_flow')) return null
        throw e
      }
      // The chain showed another screen (consent accepted): close now; else after the delay.
      if (nav.getState().current === before) await ui.sleep(meta.closeDelayMs ?? CLOSE_DELAY_MS)
      if (nav.getState().open) nav.close({ ...result, method: meta.method })
      return result
    },
    [kernel, ui],
  )
}
