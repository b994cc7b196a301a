/**
 * A lazily loaded component with ONE identity for its whole life: a `React.lazy` whose loader
 * answers synchronously once the module is in (`preload()` or an earlier render). React then
 * renders it without suspending, and the element type never changes from a loader to the
 * loaded component, so a screen is mounted once (not its loader, then the loaded component).
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react'

type Loaded<P> = ComponentType<P> | { default: ComponentType<P> }

export type PreloadableComponent<P> = LazyExoticComponent<ComponentType<P>> & {
  /** Load the module once (a failure is retried by the next call); resolves to the component. */
  preload(): Promise<ComponentType<P>>
  /** The component once loaded, else undefined. */
  loaded(): ComponentType<P> | undefined
}

/** A thenable that calls back at once: `React.lazy` reads it as already resolved. */
function settled<T>(value: T): PromiseLike<T> {
  return {
    then<A = T, B = never>(onFulfilled?: ((v: T) => A | PromiseLike<A>) | null): PromiseLike<A | B> {
      return settled(onFulfilled ? (onFulfilled(value) as A) : (value as unknown as A)) as PromiseLike<A | B>
    },
  }
}

export function lazyComponent<P>(load: () => Promise<Loaded<P>> | PromiseLike<Loaded<P>>): PreloadableComponent<P> {
  let component: ComponentType<P> | undefined
  let pending: Promise<ComponentType<P>> | null = null
  const preload = (): Promise<ComponentType<P>> => {
    if (component) return Promise.resolve(component)
    pending ??= Promise.resolve()
      .then(() => load())
      .then(
        (mod) => (component = typeof mod === 'function' || !('default' in (mod as object)) ? (mod as ComponentType<P>) : mod.default),
        (e) => {
          pending = null
          throw e
        },
      )
    return pending
  }
  const C = lazy(() =>
    (component ? settled({ default: component }) : preload().then((c) => ({ default: c }))) as Promise<{ default: ComponentType<P> }>,
  ) as PreloadableComponent<P>
  C.preload = preload
  C.loaded = () => component
  return C
}
