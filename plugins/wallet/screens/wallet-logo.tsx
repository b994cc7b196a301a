import { useState } from 'react'
import { icons } from 'portico/ui'

/**
 * A wallet's icon (EIP-6963 and wallet-standard icons are data: URIs). When the image cannot
 * load (a page CSP without `img-src data:`), the generic wallet icon shows instead of a
 * broken image.
 */
export function WalletLogo({ src, size = 20 }: { src?: string; size?: number }) {
  const [failed, setFailed] = useState(false)
  if (!src || failed) return <icons.WalletIcon width={size} height={size} />
  return <img src={src} alt="" width={size} height={size} onError={() => setFailed(true)} />
}
