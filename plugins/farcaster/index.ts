/**
 * portico/plugins/farcaster — Sign In With Farcaster (spec part 1: sections 2, 4, 5, 7, 8, 9).
 *
 * ```ts
 * createPortico({ appId, plugins: [farcaster()] })
 * ```
 * Adds the 'farcaster' landing row (when the app's login methods list 'farcaster') and the
 * screen 'farcaster-connect' (lazy): a channel is opened on the server, its connect URI shown
 * as a QR code on desktop (`uqr`, loaded with the screen) or an 'Open Warpcast app' button on
 * mobile, the status polled every 2 s until the Farcaster app signed, then log in (or link).
 * Headless: `kernel.plugin('farcaster').connect()`.
 */
import { definePlugin, normaliseFields, type FarcasterAccount, type PorticoPlugin } from 'portico'
import type { FarcasterApi } from './flow'
import { FarcasterIcon } from './icon'
import { FARCASTER_SCREEN, INITIAL_FARCASTER_STATE, type FarcasterState } from './state'

// Texts load during start-up; the flow (channel, polling), calls, error views and screens on
// first use: only their types are here.
export type { FarcasterChannel, FarcasterStatus, FarcasterSignature, LoginMode } from './calls'
export { FARCASTER, FARCASTER_SCREEN, FARCASTER_POLL_MS, FARCASTER_TIMEOUT_MS, INITIAL_FARCASTER_STATE } from './state'
export type { FarcasterApi, FarcasterState, FarcasterStatusName, FarcasterFlowOptions } from './flow'
export { FarcasterIcon } from './icon'
export { useUnlinkFarcaster } from './react'

export type FarcasterTexts = typeof import('./strings').FARCASTER_TEXTS

declare module 'portico' {
  interface PluginApis {
    farcaster: FarcasterApi
  }
  interface UserFields {
    farcaster?: FarcasterAccount
  }
}

export function farcaster(): PorticoPlugin<'farcaster', FarcasterTexts> {
  return definePlugin({
    id: 'farcaster',
    kind: 'login',
    texts: () => import('./strings').then((m) => m.FARCASTER_TEXTS),
    errors: (texts) => import('./errors').then((e) => e.farcasterErrors(texts)),
    screens: { [FARCASTER_SCREEN]: () => import('./screens/connect') },
    method: {
      displayName: (t) => t.displayName,
      accountTypes: ['farcaster'],
      userField: 'farcaster',
      normalise: (raw) =>
        normaliseFields<FarcasterAccount>(raw, 'fid:N owner_address:S username:s display_name:s bio:s profile_picture_url:s signer_public_key:s'),
      transferLabel: (t) => t.methodLabel,
      transfer: async (a, data) =>
        (await import('./calls')).transferFarcaster(a, {
          nonce: data.nonce,
          farcaster_id: Number(data.account),
          farcaster_embedded_address: data.embedded_wallet_address ?? null,
        }),
      unlink: async (a, account) => (await import('./calls')).unlinkFarcaster(a, (account as FarcasterAccount).fid),
    },
    setup(ctx) {
      const state = ctx.store<FarcasterState>(INITIAL_FARCASTER_STATE)
      const flow = ctx.lazy(() => import('./flow'))
      const api: FarcasterApi = {
        state,
        connect: async (options = {}) => {
          if ((options.intent ?? 'login') === 'login') ctx.assertLoggedOut()
          return (await flow()).runFarcaster(ctx.api, state, { texts: ctx.texts(), ...options })
        },
      }
      ctx.provide(api)
      ctx.hooks.loginMethods.tap('farcaster', (list, { config }) =>
        config.loginMethods.includes('farcaster')
          ? [...list, { id: 'farcaster', label: ctx.texts().rowLabel, group: 'web2' as const, icon: FarcasterIcon, screen: FARCASTER_SCREEN, preload: flow }]
          : list,
      )
    },
  })
}
