/**
 * Idle preload for the modal's first open. Started by `Modal` after it mounts, when the
 * browser is idle (`requestIdleCallback`, a `setTimeout` fallback), so that the first click on
 * 'Log in' needs no network fetch and does less first-time work:
 *  - the landing screen, when it is registered lazily (`ScreenDefinition.load`), is loaded
 *    and kept resolved, so the dialog renders it in the click's own task, without a Suspense
 *    fallback (see `resolvedComponent`);
 *  - the stylesheet's dialog rules and the font stack are warmed: a hidden skeleton of the
 *    dialog is inserted, laid out and removed in the same task (never painted, never focusable,
 *    no style attribute: the CSSOM is allowed under a strict CSP).
 * Nothing runs during server rendering or at module load.
 */
import type { ComponentType } from 'react'
import type { Portico, ScreenDefinition } from 'portico'
import type { ScreenProps } from '../screen-context'

type Screen = ComponentType<ScreenProps>
type Loaded = Screen | { default: Screen }

const resolved = new WeakMap<ScreenDefinition, Screen>()
const pending = new WeakMap<ScreenDefinition, Promise<Screen>>()

/** The loaded component of a lazy screen definition, once `preloadScreen` has finished. */
export function resolvedComponent(def: ScreenDefinition): Screen | undefined {
  return resolved.get(def)
}

/** Load a lazy screen's module once (a screen with `component` needs nothing). */
export function preloadScreen(def: ScreenDefinition): Promise<Screen | null> {
  if (def.component) return Promise.resolve(def.component as Screen)
  if (!def.load) return Promise.resolve(null)
  const done = resolved.get(def)
  if (done) return Promise.resolve(done)
  let p = pending.get(def)
  if (!p) {
    const load = def.load
    p = Promise.resolve()
      .then(() => load() as Promise<Loaded>)
      .then((mod) => {
        const c = typeof mod === 'function' ? mod : mod.default
        resolved.set(def, c)
        return c
      })
    p.catch(() => pending.delete(def)) // a failed preload is retried by the open itself
    pending.set(def, p)
  }
  return p
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

const SKELETON: [string, string, Record<string, string>?, string?][] = [
  // [parent class, element class, attributes, text]
  ['', 'portico-dialog', { 'data-screen': 'landing', 'data-height': 'full' }],
  ['portico-dialog', 'portico-screen'],
  ['portico-screen', 'portico-header'],
  ['portico-screen', 'portico-body'],
  ['portico-body', 'portico-title', {}, 'Log in or sign up'],
  ['portico-body', 'portico-description', {}, 'Portico'],
  ['portico-body', 'portico-input-wrap'],
  ['portico-input-wrap', 'portico-input', { type: 'email' }],
  ['portico-body', 'portico-button', { 'data-variant': 'primary' }, 'Submit'],
  ['portico-body', 'portico-list-button', {}, 'Continue'],
  ['portico-screen', 'portico-footer'],
  ['portico-footer', 'portico-legal', {}, 'By logging in I agree'],
]

/**
 * Insert a hidden skeleton of the dialog, force style and layout, remove it: the first real
 * open then finds the rules matched before and the fonts resolved. Returns false when there
 * is no document.
 */
export function warmStyles(theme: 'light' | 'dark' = 'light'): boolean {
  if (typeof document === 'undefined' || !document.body) return false
  const root = document.createElement('div')
  root.className = 'portico-root'
  root.setAttribute('data-theme', theme)
  root.setAttribute('aria-hidden', 'true')
  root.setAttribute('data-portico-warmup', '')
  root.inert = true
  for (const [k, v] of [
    ['visibility', 'hidden'],
    ['position', 'fixed'],
    ['left', '-10000px'],
    ['top', '0'],
    ['pointer-events', 'none'],
  ]) {
    root.style.setProperty(k, v, 'important')
  }
  const byClass = new Map<string, HTMLElement>([['', root]])
  for (const [parent, cls, attrs = {}, text] of SKELETON) {
    const tag = cls === 'portico-input' ? 'input' : cls.includes('button') ? 'button' : cls === 'portico-title' ? 'h2' : cls.endsWith('legal') || cls.endsWith('description') ? 'p' : 'div'
    const el = document.createElement(tag)
    el.className = cls
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v)
    if (tag === 'button' || tag === 'input') el.tabIndex = -1
    if (text) el.textContent = text
    byClass.get(parent)!.appendChild(el)
    byClass.set(cls, el)
  }
  document.body.appendChild(root)
  try {
    void root.getBoundingClientRect()
    void getComputedStyle(byClass.get('portico-input')!).width
  } finally {
    root.remove()
  }
  return true
}

/**
 * What `Modal` starts after mount: at idle, preload the landing (if lazy) and warm the styles.
 * Returns a cancel for the unmount.
 */
export function startIdlePreload(kernel: Portico, screenId = 'landing'): () => void {
  let cancelled = false
  const cancel = whenIdle(() => {
    if (cancelled) return
    const def = kernel.screens.get(screenId)
    if (def) void preloadScreen(def).catch(() => {})
    if (kernel.screens.getState().open) return
    let theme: 'light' | 'dark' = 'light'
    try {
      if (kernel.config.appearance.theme === 'dark') theme = 'dark'
    } catch {
      /* config not resolved yet */
    }
    warmStyles(theme)
  })
  return () => {
    cancelled = true
    cancel()
  }
}
