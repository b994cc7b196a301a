/**
 * portico/plugins/coinbase-onramp — funding through Coinbase Onramp (spec part 2 sections 4, 5,
 * 7, 8, 9): 'Buy with card' (buy → CARD) and 'Transfer from Coinbase' (send → CRYPTO_ACCOUNT).
 *
 * ```ts
 * createPortico({ appId, plugins: [funding(), coinbaseOnramp()] })
 * ```
 * The user's click opens a 440x680 popup; the server gets a session token from Coinbase with
 * the app's CDP key (`POST /funding/coinbase_on_ramp/init` → app_id, session_token,
 * partner_user_id); the popup goes to the pay URL that `@coinbase/cbpay-js` builds (appId,
 * sessionToken, defaultExperience, presetCryptoAmount, defaultNetwork, defaultPaymentMethod,
 * defaultAsset, partnerUserId; loaded lazily); the status is polled every 1.5 s through the
 * server. Chains outside Coinbase's list show 'Coinbase is not available on {network}.' on its
 * methods; the spec's 'Unsupported chainId: {id} for Coinbase Onramp' goes to the console.
 */
import { definePlugin, formatText, type PorticoPlugin } from 'portico'
import type { FundingMethod, ResolvedFundingRequest, WireFundingConfig } from 'portico/kits/funding'
import { coinbaseTarget } from './networks'
import type { COINBASE_ONRAMP_TEXTS } from './strings'

// The texts load during start-up (the manifest's); calls, the status poll and the error views
// load with the 'coinbase-onramp-status' screen. The chain table for 'Unsupported chainId' stays.
export type { CoinbaseInitBody, CoinbaseInitResponse } from './calls'
export { coinbaseTarget, paymentMethodFor, COINBASE_NATIVE, COINBASE_USDC, COINBASE_ASSETS } from './networks'
export type { CoinbaseTarget } from './networks'
export type { CoinbaseStatus } from './status'
/** Coinbase Onramp's texts (./strings.ts, `COINBASE_ONRAMP_TEXTS`, the manifest's): apps override them under `texts: { 'coinbase-onramp': {...} }`. */
export type CoinbaseOnrampTexts = typeof COINBASE_ONRAMP_TEXTS

export const COINBASE_ONRAMP_STATUS_SCREEN = 'coinbase-onramp-status'

export interface CoinbaseOnrampOptions {
  /** Offer 'Transfer from Coinbase' (send → CRYPTO_ACCOUNT) as the exchange method. Default true. */
  exchange?: boolean
}

export function coinbaseOnramp(options: CoinbaseOnrampOptions = {}): PorticoPlugin<'coinbase-onramp', CoinbaseOnrampTexts> {
  return definePlugin({
    id: 'coinbase-onramp',
    kind: 'funding',
    texts: () => import('./strings').then((m) => m.COINBASE_ONRAMP_TEXTS),
    errors: (texts) => import('./errors').then((e) => e.coinbaseOnrampErrors(texts)),
    screens: { [COINBASE_ONRAMP_STATUS_SCREEN]: () => import('./screens/status') },
    setup(ctx) {
      // The user reads a clear text on the method; the spec's technical one goes to the console, once per chain.
      const warned = new Set<number>()
      const unsupported = (r: ResolvedFundingRequest) => {
        const t = coinbaseTarget(r)
        if (!('unsupported' in t)) return undefined
        if (!warned.has(t.unsupported)) {
          warned.add(t.unsupported)
          ctx.warn(formatText(ctx.texts().unsupportedChainDetail, { id: t.unsupported }))
        }
        return formatText(ctx.texts().unsupportedChain, { network: r.network, id: t.unsupported })
      }
      const available = (_r: ResolvedFundingRequest, config: WireFundingConfig | null) => !!config?.coinbase
      ctx.hooks.fundingMethods.tap(ctx.id, (list) => {
        const card: FundingMethod = {
          id: 'coinbase-onramp',
          kind: 'card',
          provider: 'coinbase',
          label: ctx.texts().cardLabel,
          description: ctx.texts().cardDescription,
          order: 11,
          popup: true,
          screen: COINBASE_ONRAMP_STATUS_SCREEN,
          params: { experience: 'buy' },
          available,
          unsupported,
        }
        const exchange: FundingMethod = {
          ...card,
          id: 'coinbase-onramp-exchange',
          kind: 'exchange',
          label: ctx.texts().exchangeLabel,
          description: ctx.texts().exchangeDescription,
          order: 20,
          params: { experience: 'send' },
        }
        return options.exchange === false ? [...list, card] : [...list, card, exchange]
      })
    },
  })
}
