/**
 * portico/plugins/bridge — 'Transfer from another network': funding from an external EVM wallet
 * on another network, EVM↔EVM, EVM→Solana and Solana→EVM (`solanaSource`), through a bridge provider's quote (Relay's
 * `/execute/swap`, EXACT_OUTPUT; a testnet host for testnets; Solana destination chain id
 * 792703809; not for Solana testnet or devnet). Spec part 2: 'Funding screens', section 4
 * 'Bridge', section 7 'Funding provider calls', section 8.
 *
 * ```ts
 * createPortico({ appId, plugins: [funding(), siwe(), bridge({ chains: [base, optimism] })] })
 * ```
 * Offered when the request (or the app) enables cross-chain bridging. The screen shows the
 * amount, the source network dropdown with the wallet's balances, the destination with its
 * balance and 'Confirm with {wallet}'; then the quote, the wallet sends its transaction
 * ('Confirming with {wallet}' → 'Bridging with {wallet}' with total, destination, network and
 * estimated fee), then success.
 */
import { definePlugin, type PorticoPlugin } from 'portico'
import type { FundingChain, FundingMethod } from 'portico/kits/funding'
import type { SolanaSourceOptions } from './quote'
import { bridgeSupported } from './rules'
import type { BRIDGE_TEXTS } from './strings'

// The texts load during start-up; the quote call, the error views and the 'bridge-transfer'
// screen on use.
export type { BridgeQuoteInput, BridgeQuote, BridgeTxData } from './calls'
export { bridgeSupported } from './rules'
export type { SolanaSourceOptions } from './quote'
/** The bridge's texts (./strings.ts, `BRIDGE_TEXTS`, the manifest's): apps override them under `texts: { bridge: {...} }`. */
export type BridgeTexts = typeof BRIDGE_TEXTS

export const BRIDGE_SCREEN = 'bridge-transfer'

export interface BridgeOptions {
  /** The source networks offered (viem chains fit). The request's own chain is left out. */
  chains: FundingChain[]
  /**
   * Offer Solana (mainnet) as a source for EVM destinations, paid from a wallet-standard Solana
   * wallet (`siws`) that can send transactions.
   */
  solanaSource?: SolanaSourceOptions
}

export interface BridgeApi {
  options: BridgeOptions
}

declare module 'portico' {
  interface PluginApis {
    bridge: BridgeApi
  }
}

export function bridge(options: BridgeOptions = { chains: [] }): PorticoPlugin<'bridge', BridgeTexts> {
  return definePlugin({
    id: 'bridge',
    kind: 'funding',
    texts: () => import('./strings').then((m) => m.BRIDGE_TEXTS),
    errors: (texts) => import('./errors').then((e) => e.bridgeErrors(texts)),
    screens: { [BRIDGE_SCREEN]: () => import('./screens/transfer') },
    setup(ctx) {
      ctx.provide<BridgeApi>({ options })
      ctx.hooks.fundingMethods.tap(ctx.id, (list) => {
        const method: FundingMethod = {
          id: 'bridge',
          kind: 'wallet',
          label: ctx.texts().label,
          description: ctx.texts().description,
          order: 35,
          screen: BRIDGE_SCREEN,
          available: (r) =>
            r.crossChainBridgingEnabled &&
            bridgeSupported(r) &&
            (options.chains.some((c) => r.chainType === 'solana' || c.id !== r.chain?.id) || (!!options.solanaSource && r.chainType === 'ethereum')),
        }
        return [...list, method]
      })
    },
  })
}
