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

/** Texts of the standard chips (part 1 section 2). */
export const CHIP_TEXTS = { recent: 'Recent', connect: 'Connect', solana: 'Solana' } as const
