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
import { transferFarcaster, unlinkFarcaster } from './calls'
import { farcasterErrors } from './errors'
import { FARCASTER_SCREEN, INITIAL_FARCASTER_STATE, runFarcaster, type FarcasterApi, type FarcasterState } from './flow'
import { FarcasterIcon } from './icon'
import { FARCASTER_TEXTS } from './strings'

export { initFarcaster, getFarcasterStatus, authenticateFarcaster, linkFarcaster, unlinkFarcaster, transferFarcaster } from './calls'
export type { FarcasterChannel, FarcasterStatus, FarcasterSignature, LoginMode } from './calls'
export { farcasterErrors, farcasterTimeout, FARCASTER } from './errors'
export { runFarcaster, FARCASTER_SCREEN, FARCASTER_POLL_MS, FARCASTER_TIMEOUT_MS, INITIAL_FARCASTER_STATE } from './flow'
export type { FarcasterApi, FarcasterState, FarcasterStatusName, FarcasterFlowOptions } from './flow'
export { FARCASTER_TEXTS } from './strings'
export { FarcasterIcon } from './icon'
export { useUnlinkFarcaster } from './react'

export type FarcasterTexts = typeof FARCASTER_TEXTS

declare module 'portico' {
  interface PluginApis {
    farcaster: FarcasterApi
  }
}

export function farcaster(): PorticoPlugin<'farcaster'> {
  return definePlugin({
    id: 'farcaster',
    kind: 'login',
    setup(ctx) {
      const texts = () => ctx.texts(FARCASTER_TEXTS)
      const state = ctx.store<FarcasterState>(INITIAL_FARCASTER_STATE)
      const api: FarcasterApi = {
        state,
        connect: async (options = {}) => {
          if ((options.intent ?? 'login') === 'login') ctx.assertLoggedOut()
          return runFarcaster(ctx.api, state, { texts: texts(), ...options })
        },
      }
      ctx.provide(api)
      ctx.declareErrors(farcasterErrors(texts))
      ctx.methods.declare({
        id: 'farcaster',
        displayName: texts().displayName,
        accountTypes: ['farcaster'],
        userField: 'farcaster',
        normalise: (raw) =>
          normaliseFields<FarcasterAccount>(
            raw,
            'fid:N owner_address:S username:s display_name:s bio:s profile_picture_url:s signer_public_key:s',
          ),
        transferLabel: texts().methodLabel,
        transfer: (a, data) =>
          transferFarcaster(a, {
            nonce: data.nonce,
            farcaster_id: Number(data.account),
            farcaster_embedded_address: data.embedded_wallet_address ?? null,
          }),
        unlink: (a, account) => unlinkFarcaster(a, (account as FarcasterAccount).fid),
      })
      ctx.hooks.loginMethods.tap('farcaster', (list, { config }) =>
        config.loginMethods.includes('farcaster')
          ? [...list, { id: 'farcaster', label: texts().rowLabel, group: 'web2' as const, icon: FarcasterIcon, screen: FARCASTER_SCREEN }]
          : list,
      )
      ctx.screens.register({ id: FARCASTER_SCREEN, load: () => import('./screens/connect') })
    },
  })
}
