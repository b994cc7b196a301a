/**
 * The spec's wallet brands (part 1 section 3): their names, the wallet client types a login
 * remembers as the recent wallet and sends as `walletClientType`. Where to get them (the
 * install screen, the mobile deep links) is in `./brand-links` and their icons in
 * `./screens/brand-icons`, both loaded with the screens, not with the landing.
 */

export interface WalletBrand {
  /** The wallet client type and the `walletList` entry, e.g. 'metamask'. */
  id: string
  /** Display name; '{host}' is the app's name. */
  name: string
  /** Chains the brand's wallets sign in on. */
  chains: readonly ('ethereum' | 'solana')[]
  /** EIP-6963 reverse-DNS ids of its extensions. */
  rdns?: readonly string[]
}

const E = ['ethereum'] as const
const ES = ['ethereum', 'solana'] as const

/** The fifteen brands of spec part 1 section 3, in its order (links: ./brand-links, with the screens). */
export const WALLET_BRANDS: readonly WalletBrand[] = [
  { id: 'coinbase_wallet', name: 'Coinbase Wallet', chains: ES, rdns: ['com.coinbase.wallet'] },
  { id: 'coinbase_smart_wallet', name: 'Coinbase Smart Wallet', chains: E },
  { id: 'metamask', name: 'MetaMask', chains: E, rdns: ['io.metamask', 'io.metamask.flask', 'io.metamask.mobile'] },
  { id: 'phantom', name: 'Phantom', chains: ['solana', 'ethereum'], rdns: ['app.phantom'] },
  { id: 'rainbow', name: 'Rainbow', chains: E, rdns: ['me.rainbow'] },
  { id: 'wallet_connect', name: 'WalletConnect', chains: ES },
  { id: 'zerion', name: 'Zerion', chains: ES, rdns: ['io.zerion.wallet'] },
  { id: 'brave_wallet', name: 'Brave Wallet', chains: ES, rdns: ['com.brave.wallet'] },
  { id: 'host_onchain', name: '{host} onchain', chains: E },
  { id: 'uniswap', name: 'Uniswap Wallet', chains: E, rdns: ['org.uniswap.app'] },
  { id: 'okx_wallet', name: 'OKX Wallet', chains: ES, rdns: ['com.okex.wallet'] },
  { id: 'rabby_wallet', name: 'Rabby Wallet', chains: E, rdns: ['io.rabby'] },
  { id: 'safe', name: 'Safe', chains: E, rdns: ['global.safe'] },
  { id: 'universal_profile', name: 'Universal Profile', chains: E, rdns: ['io.universaleverything.universalprofile'] },
  { id: 'bybit_wallet', name: 'Bybit Wallet', chains: ES, rdns: ['com.bybit'] },
]

/** `walletList` entries that stand for every detected wallet not listed by name. */
export const DETECTED_WALLETS = ['detected_wallets', 'detected_ethereum_wallets', 'detected_solana_wallets'] as const

/** A brand by wallet client type. */
export function walletBrand(id: string | undefined): WalletBrand | undefined {
  return id ? WALLET_BRANDS.find((b) => b.id === id) : undefined
}

/** A brand's display name ('{host}' filled with the app's name). */
export function brandName(brand: WalletBrand, appName = 'this app'): string {
  return brand.name.replace('{host}', appName)
}

/** Name fragments of the same brands, for wallets without a known rdns. */
const NAME_CLIENT_TYPES: [RegExp, string][] = [
  [/coinbase smart wallet/i, 'coinbase_smart_wallet'],
  [/coinbase/i, 'coinbase_wallet'],
  [/metamask/i, 'metamask'],
  [/phantom/i, 'phantom'],
  [/rainbow/i, 'rainbow'],
  [/walletconnect|wallet connect/i, 'wallet_connect'],
  [/zerion/i, 'zerion'],
  [/brave/i, 'brave_wallet'],
  [/uniswap/i, 'uniswap'],
  [/okx/i, 'okx_wallet'],
  [/rabby/i, 'rabby_wallet'],
  [/^safe\b/i, 'safe'],
  [/universal profile/i, 'universal_profile'],
  [/bybit/i, 'bybit_wallet'],
]

/** The wallet client type of a discovered provider: from its rdns, else its name ('unknown' if empty). */
export function walletClientTypeOf(info: { name: string; rdns?: string }): string {
  const rdns = info.rdns?.toLowerCase?.() ?? ''
  const byRdns = rdns ? WALLET_BRANDS.find((b) => b.rdns?.includes(rdns)) : undefined
  if (byRdns) return byRdns.id
  for (const [re, type] of NAME_CLIENT_TYPES) if (re.test(info.name ?? '')) return type
  const slug = (info.name ?? '').toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '')
  return slug || 'unknown'
}

/** iOS, Android or neither, from a user agent. */
export function mobilePlatform(userAgent?: string): 'ios' | 'android' | null {
  const ua = userAgent ?? (typeof navigator !== 'undefined' ? navigator.userAgent : '')
  if (/iPhone|iPad|iPod/i.test(ua)) return 'ios'
  if (/Android/i.test(ua)) return 'android'
  return null
}
