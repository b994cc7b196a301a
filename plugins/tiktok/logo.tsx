/** TikTok's note with its cyan and red echoes (inline SVG, presentation attributes only: safe under a strict CSP). */
import type { SVGProps } from 'react'

const NOTE = 'M16.5 3.5c.3 2 1.6 3.4 3.5 3.6v2.7a6.3 6.3 0 0 1-3.5-1.1v6.1a5.3 5.3 0 1 1-5.3-5.3c.3 0 .6 0 .9.1v2.8a2.6 2.6 0 1 0 1.8 2.5V3.5z'

export function TikTokLogo(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" width={20} height={20} aria-hidden="true" focusable="false" {...props}>
      <path d={NOTE} fill="#25f4ee" transform="translate(-0.9 -0.6)" />
      <path d={NOTE} fill="#fe2c55" transform="translate(0.9 0.6)" />
      <path d={NOTE} fill="currentColor" />
    </svg>
  )
}
