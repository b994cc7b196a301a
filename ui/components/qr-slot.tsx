import type { ReactNode } from 'react'

export interface QrSlotProps {
  /** The QR code (an <img>, <svg> or <canvas> the plugin renders). */
  children?: ReactNode
  /** Accessible description of the code. */
  label?: string
}

/** A square frame for a QR code (Farcaster, WalletConnect). The UI ships no QR encoder. */
export function QrSlot({ children, label }: QrSlotProps) {
  return (
    <div className="portico-qr" role={label ? 'img' : undefined} aria-label={label}>
      {children}
    </div>
  )
}
