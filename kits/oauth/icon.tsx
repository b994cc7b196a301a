/**
 * A provider's landing icon: its initial on its brand colour (an SVG with presentation
 * attributes only, so strict CSPs without 'unsafe-inline' styles accept it). Providers with a
 * real logo may pass any component or image URL as `icon` instead.
 */
import type { SVGProps } from 'react'

export function brandIcon(letter: string, background: string, color = '#fff') {
  function BrandIcon(props: SVGProps<SVGSVGElement>) {
    return (
      <svg viewBox="0 0 24 24" width={20} height={20} aria-hidden="true" focusable="false" {...props}>
        <rect width="24" height="24" rx="6" fill={background} />
        <text x="12" y="16.6" textAnchor="middle" fontSize="13" fontWeight="700" fontFamily="system-ui, sans-serif" fill={color}>
          {letter}
        </text>
      </svg>
    )
  }
  return BrandIcon
}
