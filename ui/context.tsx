/**
 * `PorticoProvider` and the React hooks. The provider takes a kernel, or `appId` + config +
 * plugins and builds one. It attaches the UI (generic screens, the terms-consent step),
 * calls `kernel.ready()` after mount and renders the modal in a portal while a flow is open.
 */
import {
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
  type PluginApis,
  type Portico,
  type PorticoConfig,
  type PorticoPlugin,
  type Store,
  type User,
} from 'portico'
import { attachUi, type AttachOptions, type UiAttachment, type UiSnapshot } from './internal/attach'
import { Modal } from './modal/modal'
import { KernelContext } from './components/optional-kernel'

import { PorticoContext, type PorticoContextValue } from './internal/portico-context'

export type PorticoProviderProps =
  | { kernel: Portico; children?: ReactNode; ui?: AttachOptions }
  | ({ appId: string; config?: Omit<PorticoConfig, 'appId' | 'plugins'>; plugins?: PorticoPlugin[]; children?: ReactNode; ui?: AttachOptions } & {
      kernel?: undefined
    })

/**
 * Wrap the app once. Pass a kernel from `createPortico()` (you own its lifecycle), or `appId`
 * (+ `config`, `plugins`): the provider then builds the kernel, sets its plugins up when it
 * mounts and tears them down when it unmounts (StrictMode's double mount leaks nothing), and
 * later `config` props (appearance, texts, legal ...) apply without a remount.
 */
export function PorticoProvider(props: PorticoProviderProps) {
  const [value] = useState<PorticoContextValue & { owned: boolean }>(() => {
    const owned = !props.kernel
    // Side-effect free until started: StrictMode may build this twice and keep one.
    const kernel =
      props.kernel ??
      createPortico({ ...(props.config ?? {}), appId: props.appId!, plugins: props.plugins ?? [] }, { deferStart: true })
    return { kernel, ui: attachUi(kernel, props.ui), owned }
  })
  const { kernel, owned } = value

  useEffect(() => {
    let alive = true
    if (owned) kernel.start()
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
      if (owned) kernel.destroy()
    }
  }, [kernel, owned])

  // Later config props apply (appearance, texts ...); the first render already used them.
  const config = props.kernel ? undefined : props.config
  const first = useRef(true)
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    if (owned && config) kernel.setConfig(config)
  }, [kernel, owned, config])

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
  return useSyncExternalStore(ui.subscribe, ui.getSnapshot, ui.getSnapshot)
}

/** What `login()` and the flows resolve with when they complete. */
export interface LoginSuccess {
  user: User
  isNewUser: boolean
  method?: string
}

/** The screen that shows while start-up is still running (or retrying) when a flow starts. */
export const LOADING_SCREEN = 'loading'

/**
 * Start a flow. Before `ready()` the modal opens at once on the loading screen (a spinner; an
 * error with Retry while the API is unreachable) and moves on to `screen` when start-up ends.
 */
async function startFlow(kernel: Portico, intent: Intent, screen = 'landing', params: Record<string, unknown> = {}): Promise<FlowResult> {
  if (kernel.isReady) return kernel.screens.open(screen, params, { intent })
  if (!kernel.screens.has(LOADING_SCREEN)) {
    try {
      await kernel.ready()
    } catch (e) {
      return { ok: false, error: toPorticoError(e) }
    }
    return kernel.screens.open(screen, params, { intent })
  }
  const flow = kernel.screens.open(LOADING_SCREEN, {}, { intent })
  kernel.ready().then(
    () => {
      if (kernel.screens.getState().current?.id === LOADING_SCREEN) kernel.screens.replace(screen, params)
    },
    (e) => {
      if (kernel.screens.getState().current?.id === LOADING_SCREEN) kernel.screens.error(e)
    },
  )
  return flow
}

function refuseLogin(kernel: Portico): FlowResult | null {
  try {
    kernel.assertLoggedOut('ui')
    return null
  } catch (e) {
    return { ok: false, error: toPorticoError(e) }
  }
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
  const retryReady = useCallback(() => kernel.retryReady(), [kernel])
  return {
    /** True once the app config and the session are known. */
    ready: snap.ready,
    /** Start-up: 'loading', 'retrying' (API unreachable, trying again), 'ready', 'failed'. */
    status: snap.status,
    authenticated: snap.authenticated,
    user: snap.user,
    /** Start-up failed (app id) or is failing (network; it keeps retrying). */
    error: snap.error,
    /** Try start-up again now (after `error`). */
    retry: retryReady,
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

/** Read any kernel store (a plugin's state, your own) in React. */
export function useStore<S>(store: Store<S>): S {
  return useSyncExternalStore(store.subscribe, store.get, store.get)
}

const NO_STATE: Store<undefined> = { get: () => undefined, set: () => {}, subscribe: () => () => {}, reset: () => {} }

/** A plugin's API (what it handed out with `ctx.provide`), typed through `PluginApis`. */
export function usePlugin<K extends keyof PluginApis>(id: K): PluginApis[K]
export function usePlugin<A = unknown>(id: string): A
export function usePlugin(id: string): unknown {
  const { kernel } = useCtx()
  const { pluginsGeneration } = useSnapshot()
  return useMemo(() => kernel.plugin(id), [kernel, id, pluginsGeneration])
}

/** A plugin's state (its `ctx.store`), re-rendering on change; undefined when it keeps none. */
export function usePluginState<S = unknown>(id: string): S | undefined {
  const { kernel } = useCtx()
  const { pluginsGeneration } = useSnapshot()
  const store = useMemo(() => kernel.pluginState<S>(id) ?? NO_STATE, [kernel, id, pluginsGeneration])
  return useStore(store as Store<S | undefined>)
}

/** Texts of a namespace with the app's overrides (`config.texts`); follows `setConfig`. */
export function useTexts<T extends object>(namespace: string, defaults: T): T {
  const { kernel } = useCtx()
  const snap = useSnapshot()
  return useMemo(() => kernel.texts(namespace, defaults), [kernel, namespace, defaults, snap.config])
}
