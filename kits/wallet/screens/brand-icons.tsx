/**
 * Small inline SVG marks of the spec's fifteen wallet brands (part 1 section 3). Plain SVG
 * elements (no `style` attribute, no data: URI), so they draw under a strict CSP where an
 * `<img src="data:...">` would be refused. Loaded with the wallet screens, never with the
 * landing. Simplified marks in each brand's colours, not the trademarked artwork.
 */
import type { ReactElement } from 'react'

type Mark = () => ReactElement

const tile = (fill: string, body: ReactElement): Mark =>
  function BrandMark() {
    return (
      <>
        <rect width="32" height="32" rx="8" fill={fill} />
        {body}
      </>
    )
  }

export const BRAND_MARKS: Record<string, Mark> = {
  coinbase_wallet: tile('#0052ff', <><circle cx="16" cy="16" r="9" fill="#fff" /><rect x="12.5" y="12.5" width="7" height="7" rx="1.5" fill="#0052ff" /></>),
  coinbase_smart_wallet: tile('#0052ff', <><circle cx="16" cy="16" r="9" fill="none" stroke="#fff" strokeWidth="3" /><circle cx="16" cy="16" r="3" fill="#fff" /></>),
  metamask: tile('#f6851b', <path d="M7 9l7 5-1.3-3.4zM25 9l-7 5 1.3-3.4zM9 21l3.5 3 3.5-1 3.5 1 3.5-3-2-6h-10z" fill="#fff" />),
  phantom: tile('#ab9ff2', <path d="M7 19c0-6 4-10 9.5-10S26 13 26 17c0 3-2 6-5 6-1 0-1.5-.6-2-1.4-.5.8-1.3 1.4-2.3 1.4s-1.7-.6-2.1-1.4c-.6.9-1.5 1.4-2.6 1.4C9 23 7 21.5 7 19zm9-5a1 1.4 0 100 2.8 1 1.4 0 000-2.8zm4 0a1 1.4 0 100 2.8 1 1.4 0 000-2.8z" fill="#fff" />),
  rainbow: tile('#001e59', <><path d="M7 25V22a10 10 0 0110-10h1v3h-1a7 7 0 00-7 7v3z" fill="#ff4000" /><path d="M7 14v-3h10a14 14 0 0114 14h-3A11 11 0 0017 14z" fill="#ffd014" /><path d="M13 25v-3a4 4 0 014-4h0v3a1 1 0 00-1 1v3z" fill="#00aaff" /></>),
  wallet_connect: tile('#3b99fc', <path d="M10 13c3.3-3.2 8.7-3.2 12 0l.4.4-1.4 1.4-.6-.5a6.8 6.8 0 00-8.8 0l-.6.5-1.4-1.4zm-2.8 2.8l1.3-1.3L12.7 18.6 16 15.4l3.3 3.2 4.2-4.1 1.3 1.3-5.5 5.4-3.3-3.2-3.3 3.2z" fill="#fff" />),
  zerion: tile('#2461ed', <path d="M9 9h14l-4 5h4l-9 9 3-6H9l4-3.5H9z" fill="#fff" />),
  brave_wallet: tile('#fb542b', <path d="M16 6l7 3 1 6-3 8-5 3-5-3-3-8 1-6z" fill="#fff" />),
  host_onchain: tile('#1f2937', <><circle cx="12" cy="16" r="4" fill="none" stroke="#fff" strokeWidth="2" /><circle cx="20" cy="16" r="4" fill="none" stroke="#fff" strokeWidth="2" /></>),
  uniswap: tile('#fc72ff', <path d="M11 8c4 1 6 4 7 7 2-1 4-1 5 1-2 0-3 1-3 3 0 3-3 5-6 5s-5-2-5-4c2 1 4 1 5-1-3-1-5-4-3-11z" fill="#fff" />),
  okx_wallet: tile('#000', <><rect x="8" y="8" width="5" height="5" fill="#fff" /><rect x="19" y="8" width="5" height="5" fill="#fff" /><rect x="13.5" y="13.5" width="5" height="5" fill="#fff" /><rect x="8" y="19" width="5" height="5" fill="#fff" /><rect x="19" y="19" width="5" height="5" fill="#fff" /></>),
  rabby_wallet: tile('#7084ff', <path d="M7 18c1-6 7-9 13-8 3 .5 5 2.5 5 5-3-1-6 0-7 2 3 0 5 1 6 3-4 2-10 3-14 1-2-1-3-1.5-3-3z" fill="#fff" />),
  safe: tile('#12ff80', <path d="M10 12a2 2 0 012-2h8v4h-6v2h6a2 2 0 012 2v2a2 2 0 01-2 2h-8v-4h6v-2h-6a2 2 0 01-2-2z" fill="#121312" />),
  universal_profile: tile('#fe005b', <path d="M10 9h4v8a2 2 0 004 0V9h4v8a6 6 0 01-12 0z" fill="#fff" />),
  bybit_wallet: tile('#17181e', <path d="M9 11h4a2.5 2.5 0 011 4.8A2.6 2.6 0 0113 21H9zm2.5 2v2h1.3a1 1 0 000-2zm0 4v2h1.5a1 1 0 000-2zM17 11h2.5v10H17zM21 11h2.5v10H21z" fill="#f7a600" />),
}

/** The brand's mark as a 32×32 SVG scaled to `size`, or null for an unknown brand. */
export function BrandIcon({ brand, size = 20 }: { brand: string; size?: number }): ReactElement | null {
  const Mark = BRAND_MARKS[brand]
  if (!Mark) return null
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false" data-portico-brand={brand}>
      <Mark />
    </svg>
  )
}
