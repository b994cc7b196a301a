/**
 * The spec's wallet brands (part 1 section 3): their names, the wallet client types a login
 * remembers as the recent wallet and sends as `walletClientType`, and where to get them (the
 * install screen, the mobile deep links). Icons are in `./brand-icons` (loaded with the
 * screens, not with the landing).
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
  /** Where to get it (the install-wallet screen's button). */
  installUrl?: string
  /** Its app in the App Store / Google Play ('Go to App Store' on the mobile interstitial). */
  appStore?: { ios: string; android: string }
  /**
   * A deep link that opens a page inside the wallet app's own browser (where the wallet is
   * injected): mobile users without an extension get there through the interstitial.
   */
  browseUrl?: (pageUrl: string) => string
}

const enc = encodeURIComponent
const noScheme = (u: string) => u.replace(/^https?:\/\//, '')

/** The fifteen brands of spec part 1 section 3, in its order. */
export const WALLET_BRANDS: readonly WalletBrand[] = [
  {
    id: 'coinbase_wallet',
    name: 'Coinbase Wallet',
    chains: ['ethereum', 'solana'],
    rdns: ['com.coinbase.wallet'],
    installUrl: 'https://www.coinbase.com/wallet/downloads',
    appStore: { ios: 'https://apps.apple.com/app/coinbase-wallet/id1278383455', android: 'https://play.google.com/store/apps/details?id=org.toshi' },
    browseUrl: (u) => `https://go.cb-w.com/dapp?cb_url=${enc(u)}`,
  },
  { id: 'coinbase_smart_wallet', name: 'Coinbase Smart Wallet', chains: ['ethereum'], installUrl: 'https://www.smartwallet.dev' },
  {
    id: 'metamask',
    name: 'MetaMask',
    chains: ['ethereum'],
    rdns: ['io.metamask', 'io.metamask.flask', 'io.metamask.mobile'],
    installUrl: 'https://metamask.io/download/',
    appStore: { ios: 'https://apps.apple.com/app/metamask/id1438144202', android: 'https://play.google.com/store/apps/details?id=io.metamask' },
    browseUrl: (u) => `https://metamask.app.link/dapp/${noScheme(u)}`,
  },
  {
    id: 'phantom',
    name: 'Phantom',
    chains: ['solana', 'ethereum'],
    rdns: ['app.phantom'],
    installUrl: 'https://phantom.app/download',
    appStore: { ios: 'https://apps.apple.com/app/phantom-solana-wallet/id1598432977', android: 'https://play.google.com/store/apps/details?id=app.phantom' },
    browseUrl: (u) => `https://phantom.app/ul/browse/${enc(u)}?ref=${enc(new URL(u).origin)}`,
  },
  {
    id: 'rainbow',
    name: 'Rainbow',
    chains: ['ethereum'],
    rdns: ['me.rainbow'],
    installUrl: 'https://rainbow.me/download',
    appStore: { ios: 'https://apps.apple.com/app/rainbow-ethereum-wallet/id1457119021', android: 'https://play.google.com/store/apps/details?id=me.rainbow' },
    browseUrl: (u) => `https://rnbwapp.com/dapp?url=${enc(u)}`,
  },
  { id: 'wallet_connect', name: 'WalletConnect', chains: ['ethereum', 'solana'], installUrl: 'https://walletconnect.network/' },
  {
    id: 'zerion',
    name: 'Zerion',
    chains: ['ethereum', 'solana'],
    rdns: ['io.zerion.wallet'],
    installUrl: 'https://zerion.io/download',
    appStore: { ios: 'https://apps.apple.com/app/zerion-crypto-wallet-defi/id1456732565', android: 'https://play.google.com/store/apps/details?id=io.zerion.android' },
    browseUrl: (u) => `https://link.zerion.io/dapp?url=${enc(u)}`,
  },
  { id: 'brave_wallet', name: 'Brave Wallet', chains: ['ethereum', 'solana'], rdns: ['com.brave.wallet'], installUrl: 'https://brave.com/wallet/' },
  { id: 'host_onchain', name: '{host} onchain', chains: ['ethereum'] },
  {
    id: 'uniswap',
    name: 'Uniswap Wallet',
    chains: ['ethereum'],
    rdns: ['org.uniswap.app'],
    installUrl: 'https://wallet.uniswap.org/',
    appStore: { ios: 'https://apps.apple.com/app/uniswap-crypto-nft-wallet/id6443944476', android: 'https://play.google.com/store/apps/details?id=com.uniswap.mobile' },
  },
  {
    id: 'okx_wallet',
    name: 'OKX Wallet',
    chains: ['ethereum', 'solana'],
    rdns: ['com.okex.wallet'],
    installUrl: 'https://www.okx.com/web3',
    appStore: { ios: 'https://apps.apple.com/app/okx-buy-bitcoin-btc-crypto/id1327268470', android: 'https://play.google.com/store/apps/details?id=com.okinc.okex.gp' },
    browseUrl: (u) => `okx://wallet/dapp/url?dappUrl=${enc(u)}`,
  },
  { id: 'rabby_wallet', name: 'Rabby Wallet', chains: ['ethereum'], rdns: ['io.rabby'], installUrl: 'https://rabby.io/' },
  { id: 'safe', name: 'Safe', chains: ['ethereum'], rdns: ['global.safe'], installUrl: 'https://app.safe.global/' },
  {
    id: 'universal_profile',
    name: 'Universal Profile',
    chains: ['ethereum'],
    rdns: ['io.universaleverything.universalprofile'],
    installUrl: 'https://my.universalprofile.cloud/',
  },
  {
    id: 'bybit_wallet',
    name: 'Bybit Wallet',
    chains: ['ethereum', 'solana'],
    rdns: ['com.bybit'],
    installUrl: 'https://www.bybit.com/web3/home',
    appStore: { ios: 'https://apps.apple.com/app/bybit-buy-trade-crypto/id1488296980', android: 'https://play.google.com/store/apps/details?id=com.bybit.app' },
  },
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
