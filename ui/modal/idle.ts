/**
 * Idle preload for the modal's first open, in the dialog's chunk (./dialog.tsx re-exports it;
 * `Modal` starts it once that chunk is in, as it mounts). When the browser is idle
 * (`requestIdleCallback`, a `setTimeout` fallback), so that the first click on 'Log in' needs no
 * network fetch and does less first-time work:
 *  - the landing entries' chunks (`LoginMethod.preload`: SMS's phone input, e-mail's field),
 *    right after ready;
 *  - the dialog and the landing (again, if their load at mount failed), then the warm render
 *    (./warm-render.tsx);
 *  - the stylesheet's dialog rules and the font stack are warmed (`warmStyles`, ./warm.ts).
 */
import type { Portico } from 'portico'
import type { PorticoContextValue } from '../internal/portico-context'
import { preloadDialog, preloadScreen } from './preload'

/** Run `task` when the browser is idle (or after `fallbackMs` without requestIdleCallback). Returns a cancel. */
export function whenIdle(task: () => void, fallbackMs = 200): () => void {
  const w = globalThis as typeof globalThis & {
    requestIdleCallback?: (cb: () => void, opts?: { timeout: number }) => number
    cancelIdleCallback?: (id: number) => void
  }
  if (typeof w.requestIdleCallback === 'function') {
    const id = w.requestIdleCallback(task, { timeout: 2000 })
    return () => w.cancelIdleCallback?.(id)
  }
  const id = setTimeout(task, fallbackMs)
  return () => clearTimeout(id)
}

const entryLoads = new WeakMap<Portico, Map<string, Promise<unknown>>>()

/** The enabled landing entries' chunks (`LoginMethod.preload`), each loaded once per kernel; a failure is tried again next time. */
export function preloadEnabledEntries(kernel: Portico): Promise<unknown[]> {
  let loads = entryLoads.get(kernel)
  if (!loads) entryLoads.set(kernel, (loads = new Map()))
  const recent = kernel.recentLogin()?.method ?? null
  const out: Promise<unknown>[] = []
  for (const e of kernel.hooks.loginMethods.call([], { config: kernel.config, recent })) {
    if (!e.preload || !kernel.config.loginMethods.includes(e.id)) continue
    let p = loads.get(e.id)
    if (!p) {
      const mine = loads
      p = e.preload().catch((err: unknown) => {
        mine.delete(e.id)
        throw err
      })
      loads.set(e.id, p)
    }
    out.push(p)
  }
  return Promise.all(out)
}

/**
 * The landing entries' own chunks (`LoginMethod.preload`, e.g. SMS's phone input), once the
 * config is known (at ready: the server's login methods decide the entries). Failures are
 * left to the open, which loads them again.
 */
export function preloadEntries(kernel: Portico): () => void {
  const run = () => {
    try {
      void preloadEnabledEntries(kernel).catch(() => {})
    } catch {
      /* config not resolved */
    }
  }
  if (kernel.isReady) {
    run()
    return () => {}
  }
  // Ready later: in a task of its own right after it (not inside the ready event's task). Not
  // at the next idle time: the landing's inline input (e-mail's field) loads lazily too, and
  // a click soon after start-up should find it loaded; starting the fetches costs nothing.
  let cancelIdle = () => {}
  const onReady = () => {
    kernel.events.off('ready', onReady)
    const t = setTimeout(run, 0)
    cancelIdle = () => clearTimeout(t)
  }
  kernel.events.on('ready', onReady)
  return () => {
    kernel.events.off('ready', onReady)
    cancelIdle()
  }
}

/**
 * What `Modal` starts after mount: the landing's chunk at once (like the dialog's: small, and
 * the landing is lazy since it left the initial load; at idle a click soon after start-up
 * could come first and wait for it); at idle the entries' chunks and the styles' warm-up.
 * Returns a cancel for the unmount.
 */
export function startIdlePreload(kernel: Portico, screenId = 'landing', context?: PorticoContextValue): () => void {
  let cancelled = false
  let stopEntries = () => {}
  let stopWarm = () => {}
  const landing = kernel.screens.get(screenId)
  if (landing) void preloadScreen(landing).catch(() => {})
  const cancel = whenIdle(() => {
    if (cancelled) return
    // The dialog first, then the landing: once the landing's load has started, both are in.
    void preloadDialog()
      .catch(() => {})
      .then(() => {
        if (cancelled) return
        const def = kernel.screens.get(screenId)
        return def ? preloadScreen(def) : undefined
      })
      // Then, in the dialog's time, the warm render (./warm-render.tsx, with its own schedule).
      .then(() => (context && !cancelled ? import('./warm-render') : undefined))
      .then((m) => {
        if (m && context && !cancelled) stopWarm = m.warmRenderWhenReady(kernel, context, screenId, () => preloadEnabledEntries(kernel))
      })
      .catch(() => {})
    stopEntries = preloadEntries(kernel)
    if (kernel.screens.getState().open) return
    let theme: 'light' | 'dark' = 'light'
    try {
      if (kernel.config.appearance.theme === 'dark') theme = 'dark'
    } catch {
      /* config not resolved yet */
    }
    // From the dialog's chunk (loaded at mount, so in by now): the skeleton's markup is not
    // in the page's initial load (issue 11).
    void import('./dialog').then(
      (m) => {
        if (!cancelled && !kernel.screens.getState().open) m.warmStyles(theme)
      },
      () => {},
    )
  })
  return () => {
    cancelled = true
    cancel()
    stopEntries()
    stopWarm()
  }
}
