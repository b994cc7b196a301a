import type { ReactNode } from 'react'
import { ChevronRightIcon } from './icons'

export interface ListButtonProps {
  /** Left icon: a URL string (rendered as <img>) or a node. */
  icon?: ReactNode | string
  label: ReactNode
  /** Right side chip ('Recent', 'Connect', 'Solana'). */
  chip?: ReactNode
  onClick?: () => void
  disabled?: boolean
  /** Extra attributes for tests: `data-method`. */
  method?: string
}

/** A full-width row button, as on the landing and wallet lists. */
export function ListButton({ icon, label, chip, onClick, disabled, method }: ListButtonProps) {
  return (
    <button type="button" className="portico-list-button" onClick={onClick} disabled={disabled} data-method={method}>
      <span className="portico-list-icon" aria-hidden="true">
        {typeof icon === 'string' ? <img src={icon} alt="" width={20} height={20} /> : icon}
      </span>
      <span className="portico-list-label">{label}</span>
      {chip ? <span className="portico-list-chip">{chip}</span> : <ChevronRightIcon className="portico-list-chevron" width={16} height={16} />}
    </button>
  )
}
