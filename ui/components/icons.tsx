/**
 * Small stroke icons (inline SVG, no style attributes: safe under a strict CSP). The ones a
 * plugin's landing entry draws are in ./entry-icons.tsx (see there why) and re-exported here.
 */
import { iconBase as base, type IconProps } from './entry-icons'

export { MailIcon, PhoneIcon, WalletIcon, UserIcon, CopyIcon, KeyIcon } from './entry-icons'

export const CloseIcon = (p: IconProps) => (
  <svg {...base(p)}><path d="M6 6l12 12M18 6L6 18" /></svg>
)
export const BackIcon = (p: IconProps) => (
  <svg {...base(p)}><path d="M15 18l-6-6 6-6" /></svg>
)
export const ChevronRightIcon = (p: IconProps) => (
  <svg {...base(p)}><path d="M9 6l6 6-6 6" /></svg>
)
export const CheckIcon = (p: IconProps) => (
  <svg {...base(p)}><path d="M5 12.5l4.5 4.5L19 7.5" /></svg>
)
export const AlertIcon = (p: IconProps) => (
  <svg {...base(p)}><circle cx="12" cy="12" r="9" /><path d="M12 7.5v5.5M12 16.5v.01" /></svg>
)
export const LockIcon = (p: IconProps) => (
  <svg {...base(p)}><rect x="5" y="10.5" width="14" height="10" rx="2.5" /><path d="M8 10.5V8a4 4 0 0 1 8 0v2.5" /></svg>
)
export const GlobeIcon = (p: IconProps) => (
  <svg {...base(p)}><circle cx="12" cy="12" r="9" /><path d="M3 12h18M12 3c2.5 2.6 3.7 5.6 3.7 9s-1.2 6.4-3.7 9c-2.5-2.6-3.7-5.6-3.7-9S9.5 5.6 12 3z" /></svg>
)
export const DocumentIcon = (p: IconProps) => (
  <svg {...base(p)}><path d="M7 3h7l5 5v11a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z" /><path d="M14 3v5h5M9 13h6M9 17h6" /></svg>
)
export const MoreIcon = (p: IconProps) => (
  <svg {...base(p)}><path d="M6 12h.01M12 12h.01M18 12h.01" strokeWidth={3} /></svg>
)
