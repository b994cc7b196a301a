import { AlertIcon, CheckIcon } from './icons'

export interface SpinnerProps {
  size?: 'small' | 'medium' | 'large'
  /** Accessible label; null when the surrounding element already says it (a loading button). */
  label?: string | null
}

/** A spinner (CSS animation). */
export function Spinner({ size = 'medium', label = 'Loading' }: SpinnerProps) {
  return (
    <span
      className="portico-spinner"
      data-size={size}
      role={label ? 'status' : undefined}
      aria-label={label ?? undefined}
      aria-hidden={label ? undefined : true}
    />
  )
}

export interface StatusIconProps {
  /** 'idle' (static ring, waiting for the user), 'loading' (spinning), 'success', 'error'. */
  status: 'idle' | 'loading' | 'success' | 'error'
  /** Accessible label; default from the status. */
  label?: string
  /** Optional content in the centre (a method icon). */
  children?: React.ReactNode
}

/** A large round status badge: still or spinning ring, success check or error mark. */
export function StatusIcon({ status, label, children }: StatusIconProps) {
  return (
    <span className="portico-status" data-status={status} role="img" aria-label={label ?? status}>
      <span className="portico-status-ring" aria-hidden="true" />
      <span className="portico-status-center" aria-hidden="true">
        {status === 'success' ? <CheckIcon width={28} height={28} /> : status === 'error' ? <AlertIcon width={28} height={28} /> : children}
      </span>
    </span>
  )
}
