/**
 * The screen registry and the navigator (part 1 section 2). Components are opaque to the
 * kernel: a screen is a name plus whatever the UI renders for it (a component, or a lazy
 * loader so the first open ships only the landing).
 */
import { ERROR_SCREEN, PorticoError, basicErrorView, toPorticoError, type ErrorContext, type ErrorView } from './errors'

export type Intent = 'login' | 'link' | 'update'

export interface ScreenDefinition<C = unknown> {
  /** Kebab-case and unique, e.g. 'email-code'. */
  id: string
  /** The component, when bundled eagerly. */
  component?: C
  /** A lazy loader (dynamic import) resolving to the component or a module with `default`. */
  load?: () => Promise<C | { default: C }>
  /** False for screens the user cannot close (terms consent, transfer in progress). */
  canClose?: boolean
  /** Compact height (480 px) instead of full (620 px). */
  compact?: boolean
  /**
   * Shown by the first open (the landing): its `load` does not wait for the plugins' lazily
   * declared error views (`Portico.loadDeclarations`), which start loading after ready instead.
   */
  firstOpen?: boolean
}

export interface ScreenEntry {
  id: string
  params: Record<string, unknown>
}

export interface NavigatorState {
  open: boolean
  /** The screens in order; the last one shows. */
  stack: readonly ScreenEntry[]
  intent: Intent | null
  current: ScreenEntry | null
}

/** How a flow ended: `close({...})` with a result, or dismissed by the user. */
export type FlowResult = { ok: true; value?: unknown } | { ok: false; error: PorticoError }

export interface Navigator {
  register<C>(definition: ScreenDefinition<C>): () => void
  get(id: string): ScreenDefinition | undefined
  has(id: string): boolean
  readonly ids: string[]
  getState(): NavigatorState
  subscribe(listener: (state: NavigatorState) => void): () => void
  /**
   * Open a screen. When the modal is closed this starts a flow with the given intent and
   * returns its result; when open, it pushes the screen (the same flow goes on). With
   * `nested: true` over an open flow, the screen starts a flow of its own inside it (funding
   * from a transaction's 'Add funds'): its `close(value)` resolves this call and returns to the
   * screen it was opened from, `back()` from its first screen returns there as exited, and
   * `dismiss()` (× / Escape) ends both.
   */
  open(id: string, params?: Record<string, unknown>, options?: { intent?: Intent; replace?: boolean; nested?: boolean }): Promise<FlowResult>
  /** Replace the current screen. */
  replace(id: string, params?: Record<string, unknown>): void
  /** One step back; closing the flow when there is nothing behind. */
  back(): void
  /** Show the error screen (or the screen the error maps to); `back()` returns to where it was. */
  error(error: unknown, context?: ErrorContext): ErrorView
  /** Resolve an error to its view: plugins' `errorView` taps first, then the kernel's fallback. */
  resolveError(error: unknown, context?: ErrorContext): ErrorView
  /** The one rule for "this error has its own screen": its view names a `screen`. */
  hasOwnScreen(error: unknown, context?: ErrorContext): boolean
  /** End the flow with success and close the modal. */
  close(value?: unknown): void
  /** The user closed the modal: the flow ends with exited_{auth,link,update}_flow. */
  dismiss(): void
  /** Whether the current screen may be closed by the user. */
  readonly canClose: boolean
}

const EXIT_CODES: Record<Intent, { code: string; message: string }> = {
  login: { code: 'exited_auth_flow', message: 'User exited the login flow.' },
  link: { code: 'exited_link_flow', message: 'User exited the link flow.' },
  update: { code: 'exited_update_flow', message: 'User exited the update flow.' },
}

export interface NavigatorDeps {
  errorView: (error: PorticoError, context: ErrorContext) => ErrorView | undefined
  /** The kernel's method-neutral fallback, with the app's texts (default: `basicErrorView`). */
  fallbackView?: (error: PorticoError, context: ErrorContext) => ErrorView
  onOpenChange?: (open: boolean) => void
  /**
   * The load hook: runs when a lazy screen's module loads (`ScreenDefinition.load`), and the
   * load waits for what it returns. The kernel waits there for the plugins' lazily declared
   * error views, so a screen that shows an error finds its view (the first open's screen does not wait).
   */
  onLoad?: (definition: ScreenDefinition) => Promise<unknown> | undefined
}

export { ERROR_SCREEN }

export function createNavigator(deps: NavigatorDeps): Navigator {
  const registry = new Map<string, ScreenDefinition>()
  const listeners = new Set<(s: NavigatorState) => void>()
  let state: NavigatorState = { open: false, stack: [], intent: null, current: null }
  let settle: ((r: FlowResult) => void) | null = null
  let pending: Promise<FlowResult> | null = null
  /** Nested flows, innermost last: the stack depth they started at, the intent to restore, their settle. */
  const frames: { depth: number; intent: Intent | null; settle: (r: FlowResult) => void }[] = []
  const exited = (intent: Intent | null): FlowResult => {
    const exit = EXIT_CODES[intent ?? 'login']
    return { ok: false, error: new PorticoError(exit.code, exit.message) }
  }
  /** Ends the innermost nested flow: back to the screen it was opened from. */
  const endFrame = (result: FlowResult) => {
    const f = frames.pop()!
    set({ ...state, stack: state.stack.slice(0, f.depth), intent: f.intent })
    f.settle(result)
  }

  const set = (next: Omit<NavigatorState, 'current'>) => {
    const wasOpen = state.open
    state = Object.freeze({ ...next, current: next.stack[next.stack.length - 1] ?? null })
    for (const l of [...listeners]) l(state)
    if (wasOpen !== state.open) deps.onOpenChange?.(state.open)
  }

  const end = (result: FlowResult) => {
    const done = settle
    settle = null
    pending = null
    const inner = frames.splice(0).reverse()
    set({ open: false, stack: [], intent: null })
    for (const f of inner) f.settle(result.ok ? exited(state.intent ?? f.intent) : result)
    done?.(result)
  }

  const resolveError = (error: unknown, context: ErrorContext = {}): ErrorView => {
    const err = toPorticoError(error)
    const ctx = { screen: state.current?.id, intent: state.intent, ...context }
    return deps.errorView(err, ctx) ?? (deps.fallbackView ? deps.fallbackView(err, ctx) : basicErrorView())
  }

  const nav: Navigator = {
    register(def) {
      const problem = !def || typeof def.id !== 'string' || !def.id ? 'no-id' : registry.has(def.id) ? 'taken' : !def.component && !def.load ? 'empty' : null
      if (problem) {
        let message = `Screen '${def?.id}': ${problem}`
        // Development builds say what to fix; a bundler defining process.env.NODE_ENV as 'production' drops the text.
        try {
          if (process.env.NODE_ENV !== 'production') {
            message =
              problem === 'no-id'
                ? 'A screen needs a non-empty string id.'
                : problem === 'taken'
                  ? `A screen with id '${def.id}' is already registered; choose another id.`
                  : `Screen '${def.id}' needs a component or a load() function.`
          }
        } catch {
          /* no `process` */
        }
        throw new PorticoError('invalid_plugin', message)
      }
      const { load } = def
      const onLoad = deps.onLoad
      const stored = (load && onLoad ? { ...def, load: () => Promise.all([load(), onLoad(def as ScreenDefinition)]).then(([m]) => m) } : def) as ScreenDefinition
      registry.set(def.id, stored)
      return () => {
        if (registry.get(def.id) === stored) registry.delete(def.id)
      }
    },
    get: (id) => registry.get(id),
    has: (id) => registry.has(id),
    get ids() {
      return [...registry.keys()]
    },
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    open(id, params = {}, options = {}) {
      if (!registry.has(id)) {
        return Promise.reject(new PorticoError('not_found', `No screen named '${id}' is registered.`))
      }
      const entry = { id, params }
      if (state.open && pending) {
        const stack = options.replace ? [...state.stack.slice(0, -1), entry] : [...state.stack, entry]
        const next = { ...state, stack, intent: options.intent ?? state.intent }
        if (!options.nested) return set(next), pending
        return new Promise<FlowResult>((resolve) => {
          frames.push({ depth: state.stack.length, intent: state.intent, settle: resolve })
          set(next)
        })
      }
      pending = new Promise<FlowResult>((resolve) => (settle = resolve))
      set({ open: true, stack: [entry], intent: options.intent ?? 'login' })
      return pending
    },
    replace(id, params = {}) {
      if (!state.open) return
      if (!registry.has(id)) throw new PorticoError('not_found', `No screen named '${id}' is registered.`)
      set({ ...state, stack: [...state.stack.slice(0, -1), { id, params }] })
    },
    back() {
      if (!state.open) return
      const frame = frames[frames.length - 1]
      if (frame && state.stack.length - 1 <= frame.depth) return endFrame(exited(state.intent))
      if (state.stack.length <= 1) return nav.dismiss()
      set({ ...state, stack: state.stack.slice(0, -1) })
    },
    resolveError,
    hasOwnScreen: (error, context) => !!resolveError(error, context).screen,
    error(error, context = {}) {
      const err = toPorticoError(error)
      const view = resolveError(err, context)
      if (state.open && !view.inline) {
        const target = view.screen && registry.has(view.screen) ? view.screen : ERROR_SCREEN
        if (registry.has(target)) set({ ...state, stack: [...state.stack, { id: target, params: { error: err, view } }] })
      }
      return view
    },
    close(value) {
      if (!state.open && !settle) return
      if (frames.length) return endFrame({ ok: true, value })
      end({ ok: true, value })
    },
    dismiss() {
      if (!state.open && !settle) return
      end(exited(state.intent))
    },
    get canClose() {
      const cur = state.current
      return !cur || registry.get(cur.id)?.canClose !== false
    },
  }
  return nav
}
