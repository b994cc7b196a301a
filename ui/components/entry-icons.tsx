/**
 * The icons a plugin's entry draws on the landing (its row's icon), apart from the others in
 * ./icons.tsx: esbuild puts a whole file into one chunk, so a host app's initial load carries
 * this small file (only the icons its plugins use: unused ones are tree-shaken) and not the
 * whole set, which loads with the screens that draw it. Exported by name from
 * `portico/ui` (and `portico/ui`); `icons` (in `portico/ui`) has them all.
 */
import type { SVGProps } from 'react'

export type IconProps = SVGProps<SVGSVGElement>
/** The shared attributes of every icon (stroke, size, hidden from assistive technology). */
export const iconBase = (props: IconProps) => ({
  width: 20,
  height: 20,
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.8,
  strokeLinecap: 'round' as const,
  strokeLinejoin: 'round' as const,
  'aria-hidden': true,
  focusable: false,
  ...props,
})

export const MailIcon = (p: IconProps) => (
  <svg {...iconBase(p)}><rect x="3" y="5" width="18" height="14" rx="2.5" /><path d="M4 7l8 6 8-6" /></svg>
)
export const PhoneIcon = (p: IconProps) => (
  <svg {...iconBase(p)}><rect x="7" y="2.5" width="10" height="19" rx="2.5" /><path d="M11 18.5h2" /></svg>
)
export const WalletIcon = (p: IconProps) => (
  <svg {...iconBase(p)}><path d="M4 7.5A2.5 2.5 0 0 1 6.5 5H18v3" /><rect x="4" y="8" width="16" height="11" rx="2.5" /><path d="M16 13.5h.01" /></svg>
)
export const UserIcon = (p: IconProps) => (
  <svg {...iconBase(p)}><circle cx="12" cy="8.5" r="3.5" /><path d="M5 19.5c1.2-3.3 3.9-5 7-5s5.8 1.7 7 5" /></svg>
)
export const CopyIcon = (p: IconProps) => (
  <svg {...iconBase(p)}><rect x="9" y="9" width="11" height="11" rx="2" /><path d="M15 9V6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v7a2 2 0 0 0 2 2h3" /></svg>
)
export const KeyIcon = (p: IconProps) => (
  <svg {...iconBase(p)}><circle cx="8" cy="15" r="4" /><path d="M11 12l8-8M16 7l2 2M14 9l2 2" /></svg>
)
