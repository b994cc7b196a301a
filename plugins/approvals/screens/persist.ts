/**
 * Screen state that outlives the screen's component. A screen pushed over an approval (MFA's
 * 'Verify your identity' while the wallet signs) unmounts it, and going back mounts it afresh:
 * with React state alone the screen started over ('Sign and continue' again, a transaction
 * prepared again) and the signature or transaction finished meanwhile was dropped. The state
 * lives beside the request's session object instead (one per request), so the screen comes
 * back where it was: signing, sending, 'Success', the receipt.
 */
import { useCallback, useSyncExternalStore } from 'react'

interface Box {
  values: Map<string, unknown>
  listeners: Set<() => void>
  done: Set<string>
}

const boxes = new WeakMap<object, Box>()

function boxOf(owner: object): Box {
  let b = boxes.get(owner)
  if (!b) boxes.set(owner, (b = { values: new Map(), listeners: new Set(), done: new Set() }))
  return b
}

/** The value stored for `owner` under `key`, or `initial`. */
export function peek<T>(owner: object, key: string, initial: T): T {
  const b = boxOf(owner)
  return (b.values.has(key) ? b.values.get(key) : initial) as T
}

/** True the first time it is asked for `owner` and `key` (work a screen starts once per request, not per mount). */
export function once(owner: object, key: string): boolean {
  const b = boxOf(owner)
  if (b.done.has(key)) return false
  b.done.add(key)
  return true
}

/** `useState` kept on `owner` (the session): the same value after a remount; set from anywhere, also while unmounted. */
export function useSessionState<T>(owner: object, key: string, initial: T): [T, (next: T) => void] {
  const box = boxOf(owner)
  const subscribe = useCallback(
    (listener: () => void) => {
      box.listeners.add(listener)
      return () => void box.listeners.delete(listener)
    },
    [box],
  )
  const value = useSyncExternalStore(subscribe, () => peek(owner, key, initial))
  const set = useCallback(
    (next: T) => {
      box.values.set(key, next)
      for (const l of [...box.listeners]) l()
    },
    [box, key],
  )
  return [value, set]
}
