/**
 * Per-kernel UI attachment: a snapshot store for React (`useSyncExternalStore`), the generic
 * screens registered once, and the UI's tap on the `authenticated` hook (terms consent).
 * Nothing here touches `window` or `document` at module load.
 */
import { PorticoError, createStore, type AuthContext, type Portico, type ReadyStatus, type ResolvedConfig, type Store, type User } from 'portico'
import { GENERIC_SCREENS, landingScreen } from '../screens/registry'

/** Success delays (part 1 section 9). */
export const NEXT_SCREEN_DELAY_MS = 900
export const CLOSE_DELAY_MS = 1400
// The code rule every code method shares (part 1 sections 4 and 9), re-exported by portico/ui.
// Here, beside the success delays, in a module of the initial load: in portico/ui's own file
// they made a chunk of their own (one more initial file) for three numbers.
/** Codes are exactly this many digits (part 1 section 9, 'Code length'). */
export const CODE_LENGTH = 6
/** A new code may be requested this long after the last one (part 1 section 4). */
export const RESEND_COOLDOWN_MS = 30_000
/** The code boxes clear this long after a failed code (part 1 section 4). */
export const CODE_RESET_MS = 1_400

export interface UiSnapshot {
  ready: boolean
  /** Start-up: loading, retrying (API unreachable), ready, failed. */
  status: ReadyStatus
  authenticated: boolean
  user: User | null
  /** Set while start-up fails (bad app id; server down while it retries). */
  error: PorticoError | null
  /** The resolved config (changes with `kernel.setConfig`, e.g. new appearance props). */
  config: ResolvedConfig
  /** Counts plugin (re)starts: plugin APIs and stores are new after each. */
  pluginsGeneration: number
}

export interface UiAttachment {
  getSnapshot(): UiSnapshot
  subscribe(listener: () => void): () => void
  /** The terms screen settles the pending consent. */
  settleConsent(accepted: boolean): void
  /** Waits for `delay` ms; a test may shorten it. */
  sleep(ms: number): Promise<void>
}


const attachments = new WeakMap<Portico, UiAttachment>()

export interface AttachOptions {
  /** Replace the success delays (tests). */
  sleep?: (ms: number) => Promise<void>
}

/** Attach the UI to a kernel once; later calls return the same attachment. */
export function attachUi(kernel: Portico, options: AttachOptions = {}): UiAttachment {
  const existing = attachments.get(kernel)
  if (existing) return existing

  const store: Store<UiSnapshot> = createStore<UiSnapshot>({
    ready: kernel.isReady,
    status: kernel.status,
    authenticated: kernel.session.authenticated,
    user: kernel.session.user,
    error: kernel.lastError,
    config: kernel.config,
    pluginsGeneration: 0,
  })
  const update = () =>
    store.set({
      ready: kernel.isReady,
      status: kernel.status,
      authenticated: kernel.session.authenticated,
      user: kernel.session.user,
      error: kernel.isReady ? null : kernel.lastError,
      config: kernel.config,
    })
  for (const ev of ['ready', 'login', 'logout', 'user', 'session', 'status', 'config', 'error'] as const) kernel.events.on(ev, update)
  kernel.events.on('plugins', () => store.set((s) => ({ ...s, pluginsGeneration: s.pluginsGeneration + 1 })))

  // Generic screens; a host may have registered its own under the same id first.
  for (const def of [landingScreen, ...GENERIC_SCREENS]) {
    if (!kernel.screens.has(def.id)) kernel.screens.register(def)
  }

  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  let consent: { resolve: () => void; reject: (e: unknown) => void } | null = null

  // Terms consent, part 1 section 4: after 900 ms when required and not yet accepted.
  kernel.hooks.authenticated.tapPromise({ name: 'ui', stage: -10 }, async (ctx: AuthContext) => {
    if (ctx.intent !== 'login') return
    if (!ctx.config.legal.requireUsersAcceptTerms) return
    if (ctx.session.user?.hasAcceptedTerms ?? ctx.user.hasAcceptedTerms) return
    await sleep(NEXT_SCREEN_DELAY_MS)
    const wait = new Promise<void>((resolve, reject) => (consent = { resolve, reject }))
    const nav = ctx.screens
    if (nav.getState().open) nav.replace('terms-consent', {})
    else void nav.open('terms-consent', {}, { intent: 'login' })
    await wait
  })

  const attachment: UiAttachment = {
    getSnapshot: store.get,
    subscribe: (listener) => store.subscribe(() => listener()),
    settleConsent(accepted) {
      const c = consent
      consent = null
      if (!c) return
      if (accepted) c.resolve()
      else c.reject(new PorticoError('exited_auth_flow', 'The user declined the terms.'))
    },
    sleep,
  }
  attachments.set(kernel, attachment)
  return attachment
}
