import { useState } from 'react'
import { WalletIcon } from 'portico/ui'
import { BrandIcon, BRAND_MARKS } from './brand-icons'

/**
 * A wallet's icon. A known brand (part 1 section 3) draws its inline SVG mark (no data: URI,
 * so a strict CSP without `img-src data:` shows it too); other wallets show the icon they
 * announced (EIP-6963 and wallet-standard icons are data: URIs); when that cannot load, the
 * generic wallet icon shows instead of a broken image.
 */
export function WalletLogo({ src, brand, size = 20 }: { src?: string; brand?: string; size?: number }) {
  const [failed, setFailed] = useState(false)
  if (brand && BRAND_MARKS[brand]) return <BrandIcon brand={brand} size={size} />
  if (!src || failed) return <WalletIcon width={size} height={size} />
  return <img src={src} alt="" width={size} height={size} onError={() => setFailed(true)} />
}
