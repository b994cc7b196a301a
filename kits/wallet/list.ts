/**
 * Which rows the wallet list shows, in which order (spec part 1 sections 2 and 3: the app's
 * `walletList` and `walletChainType`): a pure function, so the rules are unit-tested alone.
 */
import { brandLinks } from './brand-links'
import { DETECTED_WALLETS, WALLET_BRANDS, walletBrand, type WalletBrand, type WalletLoginConnector } from './base'

export type WalletRow =
  | { kind: 'connector'; connector: WalletLoginConnector; recent: boolean }
  /** A listed brand with no wallet here: the install screen (desktop) or its app (mobile). */
  | { kind: 'brand'; brand: WalletBrand; recent: false }

export interface WalletRowOptions {
  /** `appearance.walletList`: the wallets to show, in order; undefined shows every detected one. */
  walletList?: readonly string[]
  /** The chains of `appearance.walletChainType`. */
  chains: ReadonlySet<'ethereum' | 'solana'>
  /** Whether a connector is the recent login's (shown first, with the 'Recent' chip). */
  isRecent?: (c: WalletLoginConnector) => boolean
}

/** The rows of the wallet list. */
export function walletRows(connectors: readonly WalletLoginConnector[], options: WalletRowOptions): WalletRow[] {
  const { chains, walletList } = options
  const isRecent = options.isRecent ?? (() => false)
  const usable = connectors.filter((c) => chains.has(c.chainType))
  let rows: WalletRow[]
  if (!walletList?.length) {
    rows = usable.map((c) => ({ kind: 'connector' as const, connector: c, recent: isRecent(c) }))
  } else {
    const named = new Set(walletList.filter((e) => !(DETECTED_WALLETS as readonly string[]).includes(e)))
    const taken = new Set<WalletLoginConnector>()
    rows = []
    for (const entry of walletList) {
      if ((DETECTED_WALLETS as readonly string[]).includes(entry)) {
        const chain = entry === 'detected_ethereum_wallets' ? 'ethereum' : entry === 'detected_solana_wallets' ? 'solana' : null
        for (const c of usable) {
          if (taken.has(c) || named.has(c.walletClientType) || c.redirect) continue
          if (chain && c.chainType !== chain) continue
          taken.add(c)
          rows.push({ kind: 'connector', connector: c, recent: isRecent(c) })
        }
        continue
      }
      const mine = usable.filter((c) => c.walletClientType === entry && !taken.has(c))
      // A wallet that is here (an extension) before one reached through a redirect.
      const here = mine.filter((c) => !c.redirect)
      const pick = here.length ? here : mine
      for (const c of pick) {
        taken.add(c)
        rows.push({ kind: 'connector', connector: c, recent: isRecent(c) })
      }
      if (!pick.length) {
        const brand = walletBrand(entry)
        if (brand && brand.id !== 'wallet_connect' && brand.chains.some((ch) => chains.has(ch)) && (brandLinks(brand.id).installUrl || brandLinks(brand.id).browseUrl)) {
          rows.push({ kind: 'brand', brand, recent: false })
        }
      }
    }
  }
  // The recent wallet first (stable otherwise).
  return rows.map((r, i) => ({ r, i })).sort((a, b) => Number(b.r.recent) - Number(a.r.recent) || a.i - b.i).map(({ r }) => r)
}

/** Brand ids a `walletList` may name (besides the 'detected_*' entries). */
export const WALLET_LIST_IDS: readonly string[] = [...WALLET_BRANDS.map((b) => b.id), ...DETECTED_WALLETS]
