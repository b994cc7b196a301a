/**
 * The modal shell: a real dialog (focus trap, focus returned to the opener, Escape and the
 * close button unless the screen has `canClose: false`, `aria-labelledby` to the screen title),
 * 360 px wide above 440 px and a bottom sheet below (styles.css), themed through data
 * attributes and CSS variables. Screens load lazily (`ScreenDefinition.load` → React.lazy);
 * the dialog itself (./dialog.tsx) loads lazily too. After mount, at idle, the dialog and the
 * landing are preloaded and the dialog's styles warmed (./preload.ts), so the first open needs
 * no fetch and renders at once.
 */
import { lazy, Suspense, useEffect, useState, useSyncExternalStore, type ComponentType } from 'react'
import { createPortal } from 'react-dom'
import type { Portico, ScreenDefinition } from 'portico'
import type { ScreenProps } from '../screen-context'
import { loadedDialog, preloadDialog, resolvedComponent, startIdlePreload } from './preload'

const lazyCache = new WeakMap<ScreenDefinition, ComponentType<ScreenProps>>()

/**
 * The component of a screen definition; lazy ones are wrapped once in React.lazy, unless
 * preloaded (./preload.ts) before their first render: then the loaded component itself, which
 * renders without suspending.
 */
export function screenComponent(def: ScreenDefinition): ComponentType<ScreenProps> | null {
  if (def.component) return def.component as ComponentType<ScreenProps>
  if (!def.load) return null
  let c = lazyCache.get(def)
  if (!c) {
    const ready = resolvedComponent(def)
    if (ready) return ready
    const load = def.load
    c = lazy(async () => {
      const mod = (await load()) as ComponentType<ScreenProps> | { default: ComponentType<ScreenProps> }
      return { default: typeof mod === 'function' ? mod : (mod as { default: ComponentType<ScreenProps> }).default }
    })
    lazyCache.set(def, c)
  }
  return c
}

const LazyDialog = lazy(async () => ({ default: await preloadDialog() }))

export function Modal({ kernel }: { kernel: Portico }) {
  const nav = kernel.screens
  const state = useSyncExternalStore(nav.subscribe, nav.getState, nav.getState)
  const [mounted, setMounted] = useState(false)
  useEffect(() => setMounted(true), [])
  useEffect(() => {
    // The dialog's chunk is small: fetch it at once (in parallel with start-up), not at idle.
    void preloadDialog().catch(() => {})
    return startIdlePreload(kernel)
  }, [kernel])
  if (!mounted || !state.open || !state.current) return null
  // Preloaded (the usual case): the dialog itself, rendered in the click's own task.
  const Dialog = loadedDialog()
  return createPortal(
    Dialog ? (
      <Dialog kernel={kernel} />
    ) : (
      <Suspense fallback={null}>
        <LazyDialog kernel={kernel} />
      </Suspense>
    ),
    document.body,
  )
}

