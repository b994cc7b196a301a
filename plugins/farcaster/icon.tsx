import type { SVGProps } from 'react'

/** The Farcaster arch mark. */
export function FarcasterIcon(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" width={20} height={20} aria-hidden="true" {...props}>
      <rect width="24" height="24" rx="5" fill="#855dcd" />
      <path fill="#fff" d="M6.5 5.5h11v13h-1.6v-6a3.9 3.9 0 0 0-7.8 0v6H6.5z" />
    </svg>
  )
}
