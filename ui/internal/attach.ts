/**
 * Per-kernel UI attachment: a snapshot store for React (`useSyncExternalStore`), the generic
 * screens registered once, and the UI's tap on the `authenticated` hook (terms consent).
 * Nothing here touches `window` or `document` at module load.
 */
import { PorticoError, type AuthContext, type Portico, type User } from 'portico'
import { landingScreen } from '../screens/landing'
import { GENERIC_SCREENS } from '../screens/registry'

/** Success delays (part 1 section 9). */
export const NEXT_SCREEN_DELAY_MS = 900
export const CLOSE_DELAY_MS = 1400

export interface UiSnapshot {
  ready: boolean
  authenticated: boolean
  user: User | null
  /** Set when `ready()` failed (bad app id, server down). */
  error: PorticoError | null
}

export interface UiAttachment {
  getSnapshot(): UiSnapshot
  subscribe(listener: () => void): () => void
  /** The terms screen settles the pending consent. */
  settleConsent(accepted: boolean): void
  /** Waits for `delay` ms; a test may shorten it. */
  sleep(ms: number): Promise<void>
}

export const SERVER_SNAPSHOT: UiSnapshot = Object.freeze({ ready: false, authenticated: false, user: null, error: null })

const attachments = new WeakMap<Portico, UiAttachment>()

export interface AttachOptions {
  /** Replace the success delays (tests). */
  sleep?: (ms: number) => Promise<void>
}

/** Attach the UI to a kernel once; later calls return the same attachment. */
export function attachUi(kernel: Portico, options: AttachOptions = {}): UiAttachment {
  const existing = attachments.get(kernel)
  if (existing) return existing

  const listeners = new Set<() => void>()
  let snapshot: UiSnapshot = {
    ready: kernel.isReady,
    authenticated: kernel.session.authenticated,
    user: kernel.session.user,
    error: null,
  }
  const update = (patch: Partial<UiSnapshot> = {}) => {
    const next: UiSnapshot = {
      ready: kernel.isReady,
      authenticated: kernel.session.authenticated,
      user: kernel.session.user,
      error: snapshot.error,
      ...patch,
    }
    if (
      next.ready === snapshot.ready &&
      next.authenticated === snapshot.authenticated &&
      next.user === snapshot.user &&
      next.error === snapshot.error
    )
      return
    snapshot = next
    for (const l of [...listeners]) l()
  }
  for (const ev of ['ready', 'login', 'logout', 'user', 'session'] as const) kernel.events.on(ev, () => update())
  kernel.events.on('error', (e) => {
    if (!kernel.isReady) update({ error: e as PorticoError })
  })

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
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
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
