/**
 * Mobile wallets the deep-link list offers (no registry: the WalletConnect explorer API is
 * not reached). A wallet opens the pairing URI through its universal link,
 * `<universal>/wc?uri=<encoded wc: URI>`, as WalletConnect documents for mobile linking; the
 * same link without `uri` brings the wallet forward to sign.
 */
export interface MobileWallet {
  /** Wallet client type ('metamask', 'rainbow', ...), matched against `appearance.walletList`. */
  id: string
  name: string
  /** https universal link of the wallet app, without a trailing slash. */
  universalLink: string
}

/** Spec part 1 section 3 brands with a WalletConnect universal link. */
export const DEFAULT_MOBILE_WALLETS: MobileWallet[] = [
  { id: 'metamask', name: 'MetaMask', universalLink: 'https://metamask.app.link' },
  { id: 'rainbow', name: 'Rainbow', universalLink: 'https://rnbwapp.com' },
  { id: 'zerion', name: 'Zerion', universalLink: 'https://wallet.zerion.io' },
  { id: 'uniswap', name: 'Uniswap Wallet', universalLink: 'https://uniswap.org/app' },
]

/** The deep link that hands the pairing URI to a wallet app. */
export function walletDeepLink(wallet: Pick<MobileWallet, 'universalLink'>, uri: string): string {
  return `${wallet.universalLink.replace(/\/+$/, '')}/wc?uri=${encodeURIComponent(uri)}`
}

/** The link that brings the wallet app forward (to sign), without a pairing URI. */
export function walletOpenLink(wallet: Pick<MobileWallet, 'universalLink'>): string {
  return `${wallet.universalLink.replace(/\/+$/, '')}/wc`
}

/** The wallets to offer: all, or those of the app's `walletList` when it names any of them. */
export function mobileWalletsFor(all: MobileWallet[], walletList?: string[]): MobileWallet[] {
  if (!walletList?.length) return all
  const named = all.filter((w) => walletList.includes(w.id))
  return named.length ? named : all
}
