import type { ReactNode } from 'react'

export interface ChipProps {
  children: ReactNode
  /** 'neutral' (grey), 'accent' ('Recent'), 'success'. Default 'neutral'. */
  tone?: 'neutral' | 'accent' | 'success'
}

/** A small label: 'Recent', 'Connect', 'Solana'. */
export function Chip({ children, tone = 'neutral' }: ChipProps) {
  return (
    <span className="portico-chip" data-tone={tone}>
      {children}
    </span>
  )
}

export { CHIP_TEXTS } from './chip-texts'
