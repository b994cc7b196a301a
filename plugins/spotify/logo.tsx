/** Spotify's mark (inline SVG, presentation attributes only: safe under a strict CSP). */
import type { SVGProps } from 'react'

export function SpotifyLogo(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" width={20} height={20} aria-hidden="true" focusable="false" {...props}>
      <circle cx="12" cy="12" r="10" fill="#1db954" />
      <g fill="none" stroke="#fff" strokeLinecap="round">
        <path d="M6.6 9.3c3.5-1.1 7.6-.8 10.9 1" strokeWidth={1.9} />
        <path d="M7.2 12.5c2.9-.8 6.1-.5 8.7 1" strokeWidth={1.6} />
        <path d="M7.8 15.5c2.3-.6 4.7-.4 6.8.8" strokeWidth={1.3} />
      </g>
    </svg>
  )
}
