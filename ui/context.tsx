/**
 * `PorticoProvider` and the React hooks. The provider takes a kernel, or `appId` + config +
 * plugins and builds one. It attaches the UI (generic screens, the terms-consent step),
 * calls `kernel.ready()` after mount and renders the modal in a portal while a flow is open.
 */
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react'
import {
  createPortico,
  PorticoError,
  toPorticoError,
  type FlowResult,
  type Intent,
  type LoginMethod,
  type Portico,
  type PorticoConfig,
  type PorticoPlugin,
  type User,
} from 'portico'
import { attachUi, SERVER_SNAPSHOT, type AttachOptions, type UiAttachment, type UiSnapshot } from './internal/attach'
import { Modal } from './modal/modal'
import { KernelContext } from './components/optional-kernel'

interface PorticoContextValue {
  kernel: Portico
  ui: UiAttachment
}

const PorticoContext = createContext<PorticoContextValue | null>(null)

export type PorticoProviderProps =
  | { kernel: Portico; children?: ReactNode; ui?: AttachOptions }
  | ({ appId: string; config?: Omit<PorticoConfig, 'appId' | 'plugins'>; plugins?: PorticoPlugin[]; children?: ReactNode; ui?: AttachOptions } & {
      kernel?: undefined
    })

/** Wrap the app once. Pass a kernel from `createPortico()`, or `appId` (+ `config`, `plugins`). */
export function PorticoProvider(props: PorticoProviderProps) {
  const [value] = useState<PorticoContextValue>(() => {
    const kernel =
      props.kernel ?? createPortico({ ...(props.config ?? {}), appId: props.appId!, plugins: props.plugins ?? [] })
    return { kernel, ui: attachUi(kernel, props.ui) }
  })
  const { kernel, ui } = value

  useEffect(() => {
    let alive = true
    kernel.ready().then(
      () => {
        // Users who have not accepted required terms are logged out (part 1 section 4).
        const user = kernel.session.user
        if (alive && user && kernel.config.legal.requireUsersAcceptTerms && !user.hasAcceptedTerms) {
          void kernel.session.logout()
        }
      },
      () => {
        /* reported through the 'error' event and usePortico().error */
      },
    )
    return () => {
      alive = false
    }
  }, [kernel])

  return (
    <PorticoContext.Provider value={value}>
      <KernelContext.Provider value={kernel}>
        {props.children}
        <Modal kernel={kernel} />
      </KernelContext.Provider>
    </PorticoContext.Provider>
  )
}

function useCtx(): PorticoContextValue {
  const ctx = useContext(PorticoContext)
  if (!ctx) throw new Error('Portico hooks must be used inside <PorticoProvider>.')
  return ctx
}

/** The kernel of the nearest provider (plugins' screens and headless hooks use it). */
export function useKernel(): Portico {
  return useCtx().kernel
}

/** @internal the UI attachment (consent, delays). */
export function useUiAttachment(): UiAttachment {
  return useCtx().ui
}

function useSnapshot(): UiSnapshot {
  const { ui } = useCtx()
  return useSyncExternalStore(ui.subscribe, ui.getSnapshot, () => SERVER_SNAPSHOT)
}

/** What `login()` and the flows resolve with when they complete. */
export interface LoginSuccess {
  user: User
  isNewUser: boolean
  method?: string
}

/** Start a flow on the landing screen; waits for `ready()` first. */
async function startFlow(kernel: Portico, intent: Intent, screen = 'landing', params: Record<string, unknown> = {}): Promise<FlowResult> {
  try {
    await kernel.ready()
  } catch (e) {
    return { ok: false, error: toPorticoError(e) }
  }
  return kernel.screens.open(screen, params, { intent })
}

function refuseLogin(kernel: Portico): FlowResult | null {
  const user = kernel.session.user
  if (user && !user.isGuest) {
    const message = 'Attempted to log in, but the user is already logged in. Use a link method instead.'
    kernel.events.emit('warning', { message, source: 'ui' })
    return { ok: false, error: new PorticoError('must_be_authenticated', message) }
  }
  return null
}

/**
 * The main hook: state plus stable functions.
 * `login()` opens the modal and resolves with the flow result.
 */
export function usePortico() {
  const { kernel } = useCtx()
  const snap = useSnapshot()
  const login = useCallback(async (): Promise<FlowResult> => refuseLogin(kernel) ?? startFlow(kernel, 'login'), [kernel])
  const logout = useCallback(() => kernel.session.logout(), [kernel])
  const getAccessToken = useCallback(() => kernel.session.getAccessToken(), [kernel])
  return {
    /** True once the app config and the session are known. */
    ready: snap.ready,
    authenticated: snap.authenticated,
    user: snap.user,
    /** Start-up failed (app id, network). */
    error: snap.error,
    login,
    logout,
    getAccessToken,
    kernel,
  }
}

export interface FlowCallbacks {
  onComplete?: (result: LoginSuccess) => void
  onError?: (error: PorticoError) => void
}

function useLatest<T>(value: T) {
  const ref = useRef(value)
  ref.current = value
  return ref
}

function report(result: FlowResult, cb: FlowCallbacks) {
  if (result.ok) cb.onComplete?.(result.value as LoginSuccess)
  else cb.onError?.(result.error)
}

/** `login()` with callbacks: `onComplete({user, isNewUser, method})`, `onError(error)` (e.g. `exited_auth_flow`). */
export function useLogin(callbacks: FlowCallbacks = {}) {
  const { kernel } = useCtx()
  const cb = useLatest(callbacks)
  const login = useCallback(async () => {
    const result = refuseLogin(kernel) ?? (await startFlow(kernel, 'login'))
    report(result, cb.current)
    return result
  }, [kernel, cb])
  return { login }
}

/** The landing entries plugins added for the current config (filtered and ordered by `config.loginMethods`). */
export function loginEntries(kernel: Portico): LoginMethod[] {
  const recent = kernel.recentLogin()?.method ?? null
  const all = kernel.hooks.loginMethods.call([], { config: kernel.config, recent })
  const order = kernel.config.loginMethods
  return all
    .filter((e) => order.includes(e.id))
    .sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id))
}

/**
 * Link another account: `link('email')` opens that method's screen with intent 'link'.
 * Resolves `onComplete` with the updated user; `onError` gets `exited_link_flow` when closed.
 */
export function useLinkAccount(callbacks: FlowCallbacks = {}) {
  const { kernel } = useCtx()
  const cb = useLatest(callbacks)
  const link = useCallback(
    async (method: string, params: Record<string, unknown> = {}) => {
      let result: FlowResult
      if (!kernel.session.authenticated) {
        result = { ok: false, error: new PorticoError('must_be_authenticated', 'User must be authenticated before linking an account.') }
      } else {
        await kernel.ready().catch(() => {})
        const entry = kernel.hooks.loginMethods.call([], { config: kernel.config, recent: null }).find((e) => e.id === method)
        const screen = (params.screen as string | undefined) ?? entry?.screen
        if (!screen || !kernel.screens.has(screen)) {
          result = { ok: false, error: new PorticoError('not_supported', `No enabled plugin links accounts of type '${method}'.`) }
        } else {
          result = await startFlow(kernel, 'link', screen, { ...entry?.params, ...params })
        }
      }
      report(result, cb.current)
      return result
    },
    [kernel, cb],
  )
  return { link }
}

/** `logout()` with an `onSuccess` callback. */
export function useLogout(callbacks: { onSuccess?: () => void } = {}) {
  const { kernel } = useCtx()
  const cb = useLatest(callbacks)
  const logout = useCallback(async () => {
    await kernel.session.logout()
    cb.current.onSuccess?.()
  }, [kernel, cb])
  return { logout }
}

/** The user record and `refreshUser()` (GET /users/me). */
export function useUser() {
  const { kernel } = useCtx()
  const snap = useSnapshot()
  const refreshUser = useCallback(() => kernel.session.refreshUser(), [kernel])
  return { user: snap.user, refreshUser }
}

/** Whether the modal is open, and the current screen id. */
export function useModalStatus() {
  const { kernel } = useCtx()
  const state = useSyncExternalStore(kernel.screens.subscribe, kernel.screens.getState, kernel.screens.getState)
  return useMemo(() => ({ isOpen: state.open, screen: state.current?.id ?? null, intent: state.intent }), [state])
}
