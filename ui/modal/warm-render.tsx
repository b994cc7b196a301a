/**
 * The first open's script warm-up (see ./preload.ts; in the dialog's chunk, ./dialog.tsx
 * re-exports it). A first open spends about as long compiling code as running it: V8 compiles a
 * function when it is first called, and the dialog's, the landing's and its entries' functions
 * are first called by the click. So, once at idle while the modal is closed, the dialog with
 * the landing is rendered once off the page and thrown away: into a detached root, inside a
 * hidden `<Activity>` (React 19.2+), which renders its children without mounting their effects
 * (no focus, no listeners, no scroll lock, no analytics). The render sees the kernel through a
 * stand-in whose navigator reads "open on the landing" and ignores navigation, so nothing it
 * does can reach the real modal. Without `Activity` (React 18, 19.0/19.1) it does nothing.
 */
import * as React from 'react'
import type { ComponentType, ReactNode } from 'react'
import { createRoot } from 'react-dom/client'
import type { Navigator, NavigatorState, Portico } from 'portico'
import { KernelContext } from '../components/optional-kernel'
import { PorticoContext, type PorticoContextValue } from '../internal/portico-context'
import { Dialog } from './dialog'
import { whenIdle } from './idle'

type ActivityType = ComponentType<{ mode: 'hidden' | 'visible'; children?: ReactNode }>

const noop = () => {}

/** A kernel whose navigator shows `screenId` open and does nothing when asked to navigate. */
function standIn(kernel: Portico, screenId: string): Portico {
  const nav = kernel.screens
  const entry = Object.freeze({ id: screenId, params: Object.freeze({}) })
  const state: NavigatorState = Object.freeze({ open: true, stack: Object.freeze([entry]), intent: 'login', current: entry })
  const quiet = (value: unknown) => ({ value })
  const screens = Object.create(nav, {
    getState: quiet(() => state),
    subscribe: quiet(() => noop),
    open: quiet(() => new Promise(noop)),
    replace: quiet(noop),
    back: quiet(noop),
    error: quiet((e: unknown, c?: object) => nav.resolveError(e, c)),
    close: quiet(noop),
    dismiss: quiet(noop),
    canClose: quiet(true),
  }) as Navigator
  return Object.create(kernel, { screens: { value: screens } }) as Portico
}

/**
 * Render the dialog on `screenId` once, hidden and detached, then unmount it. Returns false
 * when it cannot (no `Activity`, no document, the screen not registered).
 */
export function warmRender(value: PorticoContextValue, screenId = 'landing'): boolean {
  // Read off the namespace at run time: a bundler that checks named exports statically
  // (webpack in Next.js 15, whose bundled React 19.2 canary has no `Activity`) refuses
  // `React.Activity` when the React it bundles lacks it.
  const Activity = Reflect.get(React, 'Activity') as ActivityType | undefined
  if (!Activity || typeof document === 'undefined' || !value.kernel.screens.get(screenId)) return false
  const kernel = standIn(value.kernel, screenId)
  const ctx: PorticoContextValue = { ...value, kernel }
  let root: ReturnType<typeof createRoot> | null = null
  const done = () => {
    clearTimeout(fallback)
    setTimeout(() => {
      root?.unmount()
      root = null
    }, 0)
  }
  // Rendered after the dialog's subtree (a later sibling): the warm-up is over.
  const Done = () => {
    done()
    return null
  }
  // Unmounted once done, or after a while if a render error kept `Done` from rendering.
  const fallback = setTimeout(done, 2000)
  try {
    root = createRoot(document.createElement('div'), { onUncaughtError: noop, onCaughtError: noop, onRecoverableError: noop })
    root.render(
      <Activity mode="hidden">
        <PorticoContext.Provider value={ctx}>
          <KernelContext.Provider value={kernel}>
            <Dialog kernel={kernel} />
            <Done />
          </KernelContext.Provider>
        </PorticoContext.Provider>
      </Activity>,
    )
    return true
  } catch {
    clearTimeout(fallback)
    root?.unmount()
    root = null
    return false
  }
}

/**
 * Once ready (the server's login methods decide the landing's entries) and the entries' own
 * chunks are in, at the next idle time while the modal is still closed: render the dialog on
 * the landing once off the page (`warmRender`), so the click finds their code compiled.
 */
export function warmRenderWhenReady(
  kernel: Portico,
  context: PorticoContextValue,
  screenId: string,
  entriesLoaded: () => Promise<unknown>,
): () => void {
  let cancelled = false
  let cancelIdle = () => {}
  const closed = () => !cancelled && !kernel.screens.getState().open
  kernel
    .ready()
    .then(entriesLoaded)
    .then(() => {
      if (closed()) cancelIdle = whenIdle(() => {
        if (closed()) warmRender(context, screenId)
      })
    })
    .catch(() => {})
  return () => {
    cancelled = true
    cancelIdle()
  }
}
