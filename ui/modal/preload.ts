/**
 * Idle preload for the modal's first open. Started by `Modal` after it mounts, when the
 * browser is idle (`requestIdleCallback`, a `setTimeout` fallback), so that the first click on
 * 'Log in' needs no network fetch and does less first-time work:
 *  - the landing entries' chunks (`LoginMethod.preload`: SMS's phone input, e-mail's field),
 *    right after ready;
 *  - the dialog's own chunk (./dialog.tsx) and the landing screen (lazy: `ScreenDefinition.load`)
 *    start loading as `Modal` mounts (again at idle if that failed) and stay resolved, so the
 *    dialog renders the landing in the click's own task, without a Suspense fallback (one lazy
 *    identity per screen, see `lazyScreen`);
 *  - the stylesheet's dialog rules and the font stack are warmed (`warmStyles`, ./warm.ts: in
 *    the dialog's chunk, which is loaded by then, not in the page's initial load).
 * Nothing runs during server rendering or at module load.
 */
import type { ComponentType } from 'react'
import type { Portico, ScreenDefinition } from 'portico'
import type { ScreenProps } from '../screen-context'
import { lazyComponent, type PreloadableComponent } from '../internal/lazy'
import type { PorticoContextValue } from '../internal/portico-context'

type Screen = ComponentType<ScreenProps>
type Loaded = Screen | { default: Screen }

type DialogComponent = ComponentType<{ kernel: Portico }>

/** The dialog (./dialog.tsx) behind one lazy identity: `Modal` always renders this. */
export const LazyDialog = lazyComponent<{ kernel: Portico }>(() => import('./dialog').then((m) => m.Dialog))

/** The dialog's component once its chunk has loaded (`preloadDialog`). */
export function loadedDialog(): DialogComponent | null {
  return LazyDialog.loaded() ?? null
}

/** Load the dialog's chunk (./dialog.tsx) once; a failure is retried by the next call. */
export function preloadDialog(): Promise<DialogComponent> {
  return LazyDialog.preload()
}

const lazyScreens = new WeakMap<ScreenDefinition, PreloadableComponent<ScreenProps>>()

/**
 * The one component of a lazy screen definition (`load`): a lazy wrapper that suspends until
 * its module is in and, once loaded (`preloadScreen` or a first render), renders at once. One
 * identity per definition, so a screen mounts once.
 */
export function lazyScreen(def: ScreenDefinition): PreloadableComponent<ScreenProps> | null {
  if (!def.load) return null
  let c = lazyScreens.get(def)
  if (!c) {
    const load = def.load
    c = lazyComponent<ScreenProps>(() => load() as Promise<Loaded>)
    lazyScreens.set(def, c)
  }
  return c
}

/** The loaded component of a lazy screen definition, once `preloadScreen` has finished. */
export function resolvedComponent(def: ScreenDefinition): Screen | undefined {
  return lazyScreens.get(def)?.loaded()
}

/** Load a lazy screen's module once (a screen with `component` needs nothing). */
export function preloadScreen(def: ScreenDefinition): Promise<Screen | null> {
  if (def.component) return Promise.resolve(def.component as Screen)
  return lazyScreen(def)?.preload() ?? Promise.resolve(null)
}

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
