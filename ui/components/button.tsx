import { forwardRef, type ButtonHTMLAttributes, type ReactNode } from 'react'
import { Spinner } from './status'

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** 'primary' (accent fill), 'secondary' (outline), 'ghost' (text only). Default 'primary'. */
  variant?: 'primary' | 'secondary' | 'ghost'
  /** Shows a spinner, keeps the width, disables the button and sets `aria-busy`. */
  loading?: boolean
  /** Stretch to the container width. Default true. */
  fullWidth?: boolean
  /** Icon before the label. */
  icon?: ReactNode
}

/** The modal's button. */
export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant = 'primary', loading = false, fullWidth = true, icon, children, disabled, className, type = 'button', ...rest },
  ref,
) {
  return (
    <button
      ref={ref}
      type={type}
      className={`portico-button${className ? ` ${className}` : ''}`}
      data-variant={variant}
      data-full={fullWidth ? '' : undefined}
      data-loading={loading ? '' : undefined}
      aria-busy={loading || undefined}
      disabled={disabled || loading}
      {...rest}
    >
      {loading ? <Spinner size="small" label={null} /> : icon}
      <span className="portico-button-label">{children}</span>
    </button>
  )
})
