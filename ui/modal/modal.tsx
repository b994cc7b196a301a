/**
 * The modal shell: a real dialog (focus trap, focus returned to the opener, Escape and the
 * close button unless the screen has `canClose: false`, `aria-labelledby` to the screen title),
 * 360 px wide above 440 px and a bottom sheet below (styles.css), themed through data
 * attributes and CSS variables. Screens load lazily (`ScreenDefinition.load` → React.lazy);
 * the dialog itself (./dialog.tsx) loads lazily too. As it mounts, the dialog and the landing
 * start loading (./preload.ts); at idle the entries' chunks load and the dialog's styles are
 * warmed (./idle.ts), so the first open needs no fetch and renders at once.
 */
import { Suspense, useContext, useEffect, useState, useSyncExternalStore, type ComponentType } from 'react'
import { createPortal } from 'react-dom'
import type { Portico, ScreenDefinition } from 'portico'
import type { ScreenProps } from '../screen-context'
import { PorticoContext } from '../internal/portico-context'
import { LazyDialog, lazyScreen, preloadDialog, preloadScreen } from './preload'

/**
 * The component of a screen definition: `component`, or for a lazy one (`load`) one lazy
 * wrapper per definition, which suspends until its module is in and renders at once when
 * preloaded (./preload.ts). The same identity before and after loading: a screen mounts once.
 */
export function screenComponent(def: ScreenDefinition): ComponentType<ScreenProps> | null {
  if (def.component) return def.component as ComponentType<ScreenProps>
  return lazyScreen(def)
}

export function Modal({ kernel }: { kernel: Portico }) {
  const nav = kernel.screens
  const state = useSyncExternalStore(nav.subscribe, nav.getState, nav.getState)
  const context = useContext(PorticoContext)
  const [mounted, setMounted] = useState(false)
  useEffect(() => setMounted(true), [])
  useEffect(() => {
    let live = true
    let stopIdle = () => {}
    // The landing's chunk and the dialog's (small) load at once, in parallel with start-up; the
    // dialog's brings the idle preload (./idle.ts), started as soon as it is in.
    const landing = kernel.screens.get('landing')
    if (landing) void preloadScreen(landing).catch(() => {})
    preloadDialog()
      .then(() => import('./dialog'))
      .then(
        (m) => {
          if (live) stopIdle = m.startIdlePreload(kernel, 'landing', context ?? undefined)
        },
        () => {},
      )
    return () => {
      live = false
      stopIdle()
    }
  }, [kernel, context])
  if (!mounted || !state.open || !state.current) return null
  // Always the same lazy identity (never the loader, then the loaded component: that would
  // mount the screen twice); preloaded (the usual case) it renders in the click's own task.
  return createPortal(
    <Suspense fallback={null}>
      <LazyDialog kernel={kernel} />
    </Suspense>,
    document.body,
  )
}

