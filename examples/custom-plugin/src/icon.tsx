import type { SVGProps } from 'react'

/** Acme ID's mark: an inline SVG, no style attribute (fine under a strict CSP). */
export function AcmeIcon(props: SVGProps<SVGSVGElement>) {
  return (
    <svg width={20} height={20} viewBox="0 0 24 24" aria-hidden="true" focusable="false" {...props}>
      <path d="M12 3l8 18h-4.2l-1.6-3.8H9.8L8.2 21H4z" fill="#c2410c" />
      <path d="M11 13.6h2l-1-2.6z" fill="#fff" />
    </svg>
  )
}
