/** Google's "G" in its four colours (inline SVG, presentation attributes only: safe under a strict CSP). */
import type { SVGProps } from 'react'

export function GoogleLogo(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" width={20} height={20} aria-hidden="true" focusable="false" fill="none" strokeWidth={3.4} {...props}>
      <path d="M4.95 9.44A7.5 7.5 0 0 1 17.75 7.18" stroke="#ea4335" />
      <path d="M6.7 17.3A7.5 7.5 0 0 1 4.95 9.44" stroke="#fbbc05" />
      <path d="M17.3 17.3A7.5 7.5 0 0 1 6.7 17.3" stroke="#34a853" />
      <path d="M12 12h7.5A7.5 7.5 0 0 1 17.3 17.3" stroke="#4285f4" />
    </svg>
  )
}
