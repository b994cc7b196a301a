/**
 * portico/plugins/moonpay — card funding through MoonPay (spec part 2 sections 4, 5, 7, 8, 9).
 *
 * ```ts
 * createPortico({ appId, plugins: [funding(), moonpay()] })
 * ```
 * Adds the 'Buy with card' funding method (when the app's funding config has MoonPay). The user's
 * click opens a 440x680 popup; the server signs the widget URL with the app's MoonPay secret
 * (`POST /plugins/moonpay_on_ramp/sign`); the popup goes to it; the flow records its start
 * (analytics event, funding data, the external transaction id after 8 s) and shows
 * 'moonpay-status', polling MoonPay's transactions API every 3 s.
 *
 * `@moonpay/moonpay-js` only loads MoonPay's remote script (static.moonpay.com), which a strict
 * CSP and a closed network refuse; this plugin opens the documented widget URL instead (the same
 * URL the SDK's popup mode opens), signed by the server.
 */
import { definePlugin, type PorticoPlugin } from 'portico'
import type { FundingMethod, WireFundingConfig } from 'portico/kits/funding'
import type { MOONPAY_TEXTS } from './strings'

// The texts load during start-up (the manifest's); calls, currency codes, the status poll and the
// error views load with the 'moonpay-status' screen.
export type { MoonpaySignBody, MoonpaySignResponse } from './calls'
export type { MoonpayCurrency } from './currency'
export type { MoonpayView } from './status'
/** MoonPay's texts (./strings.ts, `MOONPAY_TEXTS`, the manifest's): apps override them under `texts: { moonpay: {...} }`. */
export type MoonpayTexts = typeof MOONPAY_TEXTS

export const MOONPAY_STATUS_SCREEN = 'moonpay-status'

export interface MoonpayOptions {
  /** Overrides the app's sandbox flag (fundingMethodConfig.moonpay.useSandbox; off by default). */
  useSandbox?: boolean
  /** MoonPay's API host for the status (default: the app's config, else https://api.moonpay.com). */
  apiUrl?: string
}

export interface MoonpayApi {
  options: MoonpayOptions
  /** Tell the host developer (a 'warning' event), e.g. the chain defaulted to Ethereum. */
  warn(message: string): void
}

declare module 'portico' {
  interface PluginApis {
    moonpay: MoonpayApi
  }
}

export function moonpay(options: MoonpayOptions = {}): PorticoPlugin<'moonpay', MoonpayTexts> {
  return definePlugin({
    id: 'moonpay',
    kind: 'funding',
    texts: () => import('./strings').then((m) => m.MOONPAY_TEXTS),
    errors: (texts) => import('./errors').then((e) => e.moonpayErrors(texts)),
    screens: { [MOONPAY_STATUS_SCREEN]: () => import('./screens/status') },
    setup(ctx) {
      ctx.provide<MoonpayApi>({ options, warn: (m) => ctx.warn(m) })
      ctx.hooks.fundingMethods.tap(ctx.id, (list) => {
        const method: FundingMethod = {
          id: 'moonpay',
          kind: 'card',
          provider: 'moonpay',
          label: ctx.texts().label,
          description: ctx.texts().description,
          order: 10,
          popup: true,
          screen: MOONPAY_STATUS_SCREEN,
          available: (_r, config: WireFundingConfig | null) => !!config?.moonpay,
        }
        return [...list, method]
      })
    },
  })
}
