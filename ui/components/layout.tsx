/** The screen layout every screen uses: header (back, close), title, body, footer. */
import { createContext, useContext, useEffect, useId, useRef, type ReactNode } from 'react'
import { useOptionalKernel } from './optional-kernel'
import { BackIcon, CloseIcon } from './icons'

/** Set by the modal: the id its `aria-labelledby` points at. */
export const TitleIdContext = createContext<string | null>(null)

export interface ScreenLayoutProps {
  /** The screen's heading; becomes the dialog's accessible name. */
  title: ReactNode
  /** A line under the title. */
  description?: ReactNode
  /** A large icon or logo above the title (e.g. `<StatusIcon status="success" />`). */
  icon?: ReactNode
  /**
   * Show a back button: `true` (navigator `back()`), a function, or `false`.
   * Default: shown when there is a screen to go back to.
   */
  back?: boolean | (() => void)
  /** Show the close button. Default: when the screen can be closed (`canClose !== false`). */
  close?: boolean
  /** Hide the title visually (still read by screen readers). */
  titleHidden?: boolean
  children?: ReactNode
  /** Bottom area: legal line, secondary actions. */
  footer?: ReactNode
  /** Extra class on the screen root. */
  className?: string
}

/** Layout for a modal screen. Use it for every screen so the dialog's title resolves. */
export function ScreenLayout({ title, description, icon, back, close, titleHidden, children, footer, className }: ScreenLayoutProps) {
  const fallbackId = useId()
  const titleId = useContext(TitleIdContext) ?? fallbackId
  const kernel = useOptionalKernel()
  const nav = kernel?.screens
  const depth = nav ? nav.getState().stack.length - 1 : 0
  const showBack = back === undefined ? depth > 0 : !!back
  const onBack = typeof back === 'function' ? back : () => nav?.back()
  const showClose = close ?? (nav ? nav.canClose : false)
  const rootRef = useRef<HTMLDivElement>(null)
  // A lazily loaded screen mounts after the dialog placed focus: move it into the screen.
  useEffect(() => {
    const root = rootRef.current
    const dialog = root?.closest<HTMLElement>('[role=dialog]')
    if (!root || !dialog) return
    const active = document.activeElement
    if (active && active !== dialog && dialog.contains(active)) return
    const target =
      root.querySelector<HTMLElement>('[autofocus], [data-autofocus]') ??
      root.querySelector<HTMLElement>('.portico-body input:not([disabled]), .portico-body button:not([disabled]), .portico-body a[href]')
    target?.focus()
  }, [])
  return (
    <div ref={rootRef} className={`portico-screen${className ? ` ${className}` : ''}`}>
      <div className="portico-header">
        {showBack ? (
          <button type="button" className="portico-icon-button" aria-label="Back" onClick={onBack} data-portico-back>
            <BackIcon />
          </button>
        ) : (
          <span className="portico-header-spacer" />
        )}
        {showClose ? (
          <button type="button" className="portico-icon-button" aria-label="Close" onClick={() => nav?.dismiss()} data-portico-close>
            <CloseIcon />
          </button>
        ) : (
          <span className="portico-header-spacer" />
        )}
      </div>
      <div className="portico-body">
        {icon ? <div className="portico-hero">{icon}</div> : null}
        <h2 id={titleId} className={titleHidden ? 'portico-title portico-visually-hidden' : 'portico-title'}>
          {title}
        </h2>
        {description ? <p className="portico-description">{description}</p> : null}
        {children}
      </div>
      {footer ? <div className="portico-footer">{footer}</div> : null}
    </div>
  )
}
