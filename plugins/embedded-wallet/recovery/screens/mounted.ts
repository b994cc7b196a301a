/**
 * Two small hooks the recovery screens share, so a busy screen never traps the user:
 * - `useMounted()`: true while the screen is mounted. The effect sets it back to true when it
 *   runs, so React's StrictMode (which mounts, unmounts and mounts again in development) does
 *   not leave it false: a screen that checks it after an await would otherwise never leave
 *   its spinner (issue 25: 'Set Password' and 'Recover your account' hung under `npm start`).
 * - `useFocusInside(ref, key)`: after a step change or a button that disables itself while
 *   busy, focus would fall to the page's body, where Escape and Tab no longer reach the
 *   dialog. When focus is not inside the dialog any more, it moves to the step's autofocus
 *   target, else its first enabled control, else the dialog itself.
 */
import { useEffect, useRef, type RefObject } from 'react'

export function useMounted(): RefObject<boolean> {
  const mounted = useRef(true)
  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
    }
  }, [])
  return mounted
}

const CONTROLS = 'input:not([disabled]), button:not([disabled]), a[href], textarea:not([disabled]), select:not([disabled])'

export function useFocusInside(ref: RefObject<HTMLElement | null>, key: unknown): void {
  useEffect(() => {
    const el = ref.current
    const dialog = el?.closest<HTMLElement>('[role=dialog]')
    if (!el || !dialog) return
    const active = typeof document === 'undefined' ? null : document.activeElement
    // A control that disabled itself (a busy button) loses focus to the body: move it now.
    if (active && active !== document.body && dialog.contains(active) && !(active as HTMLButtonElement).disabled) return
    const screen = el.closest<HTMLElement>('.portico-screen') ?? el
    const target =
      screen.querySelector<HTMLElement>('[autofocus]:not([disabled]), [data-autofocus]') ??
      screen.querySelector<HTMLElement>(`.portico-body ${CONTROLS.split(', ').join(', .portico-body ')}`) ??
      dialog
    target.focus()
  }, [ref, key])
}
