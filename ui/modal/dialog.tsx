/**
 * The dialog itself (see ./modal.tsx): loaded lazily with its helpers, in its own chunk, and
 * fetched as the modal mounts (./preload.ts), so the first open renders it at once; it brings
 * the idle preload (./idle.ts).
 */
import { Suspense, useId, useEffect, useLayoutEffect, useRef, useSyncExternalStore, type KeyboardEvent } from 'react'
import type { Portico } from 'portico'
import { TitleIdContext } from '../components/layout'
import { Spinner } from '../components/status'
import { ScreenContext } from '../screen-context'
import { ScreenBoundary } from './boundary'
import { screenComponent } from './modal'

/** The style warm-up and the idle preload, here so that they load with the dialog (`Modal` starts the idle preload once this chunk is in). */
export { warmStyles } from './warm'
export { startIdlePreload } from './idle'

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

/** Focus the screen's autofocus element, else its first focusable, else the dialog itself (when focus is not inside yet). */
function focusInto(dialog: HTMLElement): void {
  if (dialog.contains(document.activeElement)) return
  const auto = dialog.querySelector<HTMLElement>('[autofocus], [data-autofocus]')
  const first = auto ?? dialog.querySelector<HTMLElement>('.portico-body ' + FOCUSABLE.split(', ').join(', .portico-body '))
  ;(first ?? dialog).focus()
}

/** A relative luminance check to pick white or dark text on the accent colour. */
function accentForeground(color: string, el: HTMLElement): string | null {
  const probe = el.ownerDocument.createElement('span')
  probe.style.setProperty('color', color)
  el.appendChild(probe)
  const rgb = getComputedStyle(probe).color.match(/\d+(\.\d+)?/g)?.map(Number)
  probe.remove()
  if (!rgb || rgb.length < 3) return null
  const [r, g, b] = rgb.map((v) => {
    const c = v / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  const l = 0.2126 * r + 0.7152 * g + 0.0722 * b
  return l > 0.4 ? '#111217' : '#ffffff'
}

const DARK_QUERY = '(prefers-color-scheme: dark)'

/** 'light' | 'dark' | 'system' to the theme in force; 'system' follows the OS and its changes. */
export function useColorScheme(theme: 'light' | 'dark' | 'system'): 'light' | 'dark' {
  const system = useSyncExternalStore(
    (l) => {
      if (theme !== 'system' || typeof matchMedia === 'undefined') return () => {}
      const mq = matchMedia(DARK_QUERY)
      mq.addEventListener('change', l)
      return () => mq.removeEventListener('change', l)
    },
    () => (theme === 'system' && typeof matchMedia !== 'undefined' && matchMedia(DARK_QUERY).matches ? 'dark' : 'light'),
    () => 'light' as const,
  )
  return theme === 'system' ? system : theme === 'dark' ? 'dark' : 'light'
}

export function Dialog({ kernel }: { kernel: Portico }) {
  const nav = kernel.screens
  const state = useSyncExternalStore(nav.subscribe, nav.getState, nav.getState)
  const titleId = `portico-title-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`
  const rootRef = useRef<HTMLDivElement>(null)
  const dialogRef = useRef<HTMLDivElement>(null)
  const opener = useRef<Element | null>(null)
  const current = state.current!
  const def = nav.get(current.id)
  const Component = def ? screenComponent(def) : null
  // The config follows `kernel.setConfig` (new appearance props) through the 'config' event.
  const config = useSyncExternalStore(
    (l) => kernel.events.on('config', l) ?? (() => kernel.events.off('config', l)),
    () => kernel.config,
    () => kernel.config,
  )
  const resolvedTheme = useColorScheme(config.appearance.theme)
  const canClose = nav.canClose

  // Remember the opener; give focus back when the dialog goes away. Lock the page's scroll
  // (a class, not a style attribute: CSP) and keep focus inside while open.
  useLayoutEffect(() => {
    opener.current = document.activeElement
    const html = document.documentElement
    html.classList.add('portico-scroll-lock')
    const onFocusIn = (e: FocusEvent) => {
      const dialog = dialogRef.current
      if (dialog && e.target instanceof Node && !rootRef.current?.contains(e.target)) {
        ;(dialog.querySelector<HTMLElement>(FOCUSABLE) ?? dialog).focus()
      }
    }
    document.addEventListener('focusin', onFocusIn)
    return () => {
      document.removeEventListener('focusin', onFocusIn)
      html.classList.remove('portico-scroll-lock')
      const el = opener.current as HTMLElement | null
      if (el && typeof el.focus === 'function' && el.isConnected) el.focus()
    }
  }, [])

  // Accent colour through the CSSOM (allowed under a strict CSP, unlike style attributes).
  useLayoutEffect(() => {
    const root = rootRef.current
    const accent = config.appearance.accentColor
    if (!root) return
    if (accent) {
      root.style.setProperty('--portico-accent', accent)
      const fg = accentForeground(accent, root)
      if (fg) root.style.setProperty('--portico-accent-foreground', fg)
    } else {
      root.style.removeProperty('--portico-accent')
      root.style.removeProperty('--portico-accent-foreground')
    }
  }, [config.appearance.accentColor])

  // Move focus into the dialog on each screen change, unless a screen already placed it.
  useEffect(() => {
    const dialog = dialogRef.current
    if (!dialog) return
    const t = setTimeout(() => {
      if (dialog.contains(document.activeElement)) return
      focusInto(dialog)
    }, 0)
    return () => clearTimeout(t)
  }, [current])

  // A screen that swaps its own content (a phase: review → receipt, sending → error) can remove
  // the focused element; focus then falls to <body>, where Tab and Escape no longer reach the
  // dialog. Put it back inside.
  useEffect(() => {
    const dialog = dialogRef.current
    if (!dialog || typeof MutationObserver === 'undefined') return
    const observer = new MutationObserver(() => {
      const active = document.activeElement
      if (active && active !== document.body && active.isConnected) return
      focusInto(dialog)
    })
    observer.observe(dialog, { childList: true, subtree: true })
    return () => observer.disconnect()
  }, [])

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.stopPropagation()
      if (nav.canClose) nav.dismiss()
      return
    }
    if (e.key !== 'Tab') return
    const dialog = dialogRef.current
    if (!dialog) return
    const items = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null || el === document.activeElement)
    if (items.length === 0) {
      e.preventDefault()
      dialog.focus()
      return
    }
    const first = items[0]
    const last = items[items.length - 1]
    if (e.shiftKey && (document.activeElement === first || document.activeElement === dialog)) {
      e.preventDefault()
      last.focus()
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault()
      first.focus()
    }
  }

  return (
    <div
      ref={rootRef}
      className="portico-root"
      data-theme={resolvedTheme}
      data-portico-modal=""
    >
      <div
        className="portico-backdrop"
        data-portico-backdrop=""
        aria-hidden="true"
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => {
          if (nav.canClose) nav.dismiss()
        }}
      />
      <div
        ref={dialogRef}
        className="portico-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        data-height={def?.compact ? 'compact' : 'full'}
        data-screen={current.id}
        data-can-close={canClose ? 'true' : 'false'}
        onKeyDown={onKeyDown}
      >
        <TitleIdContext.Provider value={titleId}>
          <ScreenContext.Provider value={{ entry: current, depth: state.stack.length - 1 }}>
            <ScreenBoundary key={current.id} kernel={kernel}>
              <Suspense
                fallback={
                  <div className="portico-screen portico-loading">
                    <h2 id={titleId} className="portico-visually-hidden">
                      Loading
                    </h2>
                    <Spinner size="large" />
                  </div>
                }
              >
                {Component ? <Component key={current.id + state.stack.length} id={current.id} params={current.params} /> : null}
              </Suspense>
            </ScreenBoundary>
          </ScreenContext.Provider>
        </TitleIdContext.Provider>
        <div className="portico-slot" data-portico-slot="captcha" id="portico-captcha-slot" />
      </div>
    </div>
  )
}
