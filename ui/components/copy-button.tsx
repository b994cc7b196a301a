import { useEffect, useRef, useState } from 'react'
import { CheckIcon, CopyIcon } from './icons'

export interface CopyButtonProps {
  /** The text put on the clipboard. */
  value: string
  /** Label before copying. Default 'Copy'. */
  label?: string
  /** Label after copying. Default 'Copied'. */
  copiedLabel?: string
  /** How long the copied indicator shows. Default 1500 ms (the transfer screen uses 2000). */
  resetAfterMs?: number
  onCopy?: (value: string) => void
}

/** Copies a value and shows a confirmation for a moment. */
export function CopyButton({ value, label = 'Copy', copiedLabel = 'Copied', resetAfterMs = 1500, onCopy }: CopyButtonProps) {
  const [copied, setCopied] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), [])
  const copy = async () => {
    try {
      await navigator.clipboard?.writeText(value)
    } catch {
      /* clipboard refused: still show the value is selectable */
    }
    onCopy?.(value)
    setCopied(true)
    if (timer.current) clearTimeout(timer.current)
    timer.current = setTimeout(() => setCopied(false), resetAfterMs)
  }
  return (
    <button type="button" className="portico-copy" data-copied={copied ? '' : undefined} onClick={copy}>
      {copied ? <CheckIcon width={16} height={16} /> : <CopyIcon width={16} height={16} />}
      <span aria-live="polite">{copied ? copiedLabel : label}</span>
    </button>
  )
}
