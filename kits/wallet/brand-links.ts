/**
 * Where to get each brand of spec part 1 section 3 (the install-wallet screen's button), its
 * app store pages ('Go to App Store' on the mobile interstitial) and the deep link that opens a
 * page in the wallet app's own browser (where the wallet is injected). Loaded with the wallet
 * screens, not with the landing.
 */

export interface WalletBrandLinks {
  /** Where to get it. */
  installUrl?: string
  /** Its app in the App Store / Google Play. */
  appStore?: { ios: string; android: string }
  /** A link that opens `pageUrl` inside the wallet app's browser. */
  browseUrl?: (pageUrl: string) => string
}

const enc = encodeURIComponent
const noScheme = (u: string) => u.replace(/^https?:\/\//, '')
const stores = (ios: string, android: string) => ({ ios: `https://apps.apple.com/app/${ios}`, android: `https://play.google.com/store/apps/details?id=${android}` })

export const BRAND_LINKS: Record<string, WalletBrandLinks> = {
  coinbase_wallet: {
    installUrl: 'https://www.coinbase.com/wallet/downloads',
    appStore: stores('coinbase-wallet/id1278383455', 'org.toshi'),
    browseUrl: (u) => `https://go.cb-w.com/dapp?cb_url=${enc(u)}`,
  },
  coinbase_smart_wallet: { installUrl: 'https://www.smartwallet.dev' },
  metamask: {
    installUrl: 'https://metamask.io/download/',
    appStore: stores('metamask/id1438144202', 'io.metamask'),
    browseUrl: (u) => `https://metamask.app.link/dapp/${noScheme(u)}`,
  },
  phantom: {
    installUrl: 'https://phantom.app/download',
    appStore: stores('phantom-solana-wallet/id1598432977', 'app.phantom'),
    browseUrl: (u) => `https://phantom.app/ul/browse/${enc(u)}?ref=${enc(new URL(u).origin)}`,
  },
  rainbow: {
    installUrl: 'https://rainbow.me/download',
    appStore: stores('rainbow-ethereum-wallet/id1457119021', 'me.rainbow'),
    browseUrl: (u) => `https://rnbwapp.com/dapp?url=${enc(u)}`,
  },
  wallet_connect: { installUrl: 'https://walletconnect.network/' },
  zerion: {
    installUrl: 'https://zerion.io/download',
    appStore: stores('zerion-crypto-wallet-defi/id1456732565', 'io.zerion.android'),
    browseUrl: (u) => `https://link.zerion.io/dapp?url=${enc(u)}`,
  },
  brave_wallet: { installUrl: 'https://brave.com/wallet/' },
  uniswap: { installUrl: 'https://wallet.uniswap.org/', appStore: stores('uniswap-crypto-nft-wallet/id6443944476', 'com.uniswap.mobile') },
  okx_wallet: {
    installUrl: 'https://www.okx.com/web3',
    appStore: stores('okx-buy-bitcoin-btc-crypto/id1327268470', 'com.okinc.okex.gp'),
    browseUrl: (u) => `okx://wallet/dapp/url?dappUrl=${enc(u)}`,
  },
  rabby_wallet: { installUrl: 'https://rabby.io/' },
  safe: { installUrl: 'https://app.safe.global/' },
  universal_profile: { installUrl: 'https://my.universalprofile.cloud/' },
  bybit_wallet: { installUrl: 'https://www.bybit.com/web3/home', appStore: stores('bybit-buy-trade-crypto/id1488296980', 'com.bybit.app') },
}

export function brandLinks(id: string | undefined): WalletBrandLinks {
  return (id && BRAND_LINKS[id]) || {}
}
