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
import { farcasterLabel } from './labels'
import { FARCASTER_SCREEN, INITIAL_FARCASTER_STATE, type FarcasterState } from './state'

// The flow (channel, polling), calls, error views and texts load on first use: only their
// types are here.
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
}

export function farcaster(): PorticoPlugin<'farcaster'> {
  return definePlugin({
    id: 'farcaster',
    kind: 'login',
    setup(ctx) {
      const label = (key: 'displayName' | 'rowLabel' | 'methodLabel') => farcasterLabel(ctx.config.texts.farcaster, key)
      const state = ctx.store<FarcasterState>(INITIAL_FARCASTER_STATE)
      const loadFlow = () => Promise.all([import('./flow'), import('./strings')])
      const api: FarcasterApi = {
        state,
        connect: async (options = {}) => {
          if ((options.intent ?? 'login') === 'login') ctx.assertLoggedOut()
          const [{ runFarcaster }, { FARCASTER_TEXTS }] = await loadFlow()
          return runFarcaster(ctx.api, state, { texts: ctx.texts(FARCASTER_TEXTS), ...options })
        },
      }
      ctx.provide(api)
      ctx.declareErrors(() =>
        Promise.all([import('./errors'), import('./strings')]).then(([e, s]) => e.farcasterErrors(() => ctx.texts(s.FARCASTER_TEXTS))),
      )
      ctx.methods.declare({
        id: 'farcaster',
        displayName: label('displayName'),
        accountTypes: ['farcaster'],
        userField: 'farcaster',
        normalise: (raw) =>
          normaliseFields<FarcasterAccount>(
            raw,
            'fid:N owner_address:S username:s display_name:s bio:s profile_picture_url:s signer_public_key:s',
          ),
        transferLabel: label('methodLabel'),
        transfer: async (a, data) =>
          (await import('./calls')).transferFarcaster(a, {
            nonce: data.nonce,
            farcaster_id: Number(data.account),
            farcaster_embedded_address: data.embedded_wallet_address ?? null,
          }),
        unlink: async (a, account) => (await import('./calls')).unlinkFarcaster(a, (account as FarcasterAccount).fid),
      })
      ctx.hooks.loginMethods.tap('farcaster', (list, { config }) =>
        config.loginMethods.includes('farcaster')
          ? [...list, { id: 'farcaster', label: label('rowLabel'), group: 'web2' as const, icon: FarcasterIcon, screen: FARCASTER_SCREEN, preload: loadFlow }]
          : list,
      )
      ctx.screens.register({ id: FARCASTER_SCREEN, load: () => import('./screens/connect') })
    },
  })
}
