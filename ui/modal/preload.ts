/**
 * The lazy parts of the modal, each behind one identity: the dialog (./dialog.tsx) and every
 * lazy screen (`ScreenDefinition.load`). `Modal` starts loading the dialog and the landing as it
 * mounts; they stay resolved, so the dialog renders the landing in the click's own task, without
 * a Suspense fallback. What runs later, at idle, is in ./idle.ts (it loads with the dialog).
 * Nothing runs during server rendering or at module load.
 */
import type { ComponentType } from 'react'
import type { Portico, ScreenDefinition } from 'portico'
import type { ScreenProps } from '../screen-context'
import { lazyComponent, type PreloadableComponent } from '../internal/lazy'

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
