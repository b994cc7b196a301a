/**
 * portico/plugins/farcaster-signer — Farcaster signers (spec part 1 sections 2, 9; part 2
 * sections 7, 8): an Ed25519 key the wallet frame derives from the user's embedded wallet,
 * approved by the user in the Farcaster app, then used to sign casts.
 *
 * ```ts
 * createPortico({ appId, plugins: [farcaster(), embeddedWallet({ frameUrl }), farcasterSigner()] })
 * const { requestFarcasterSigner, makeCastAdd } = useFarcasterSigner()
 * await requestFarcasterSigner()                  // the awaiting-signer screen; resolves once approved
 * const cast = await makeCastAdd({ text: 'gm' })  // signed in the frame; submit to a hub
 * ```
 * Needs a logged-in user with an embedded wallet and a linked Farcaster account. The flow, the
 * screen and @farcaster/core (for `makeCastAdd`) load on first use.
 */
import { definePlugin, type PorticoPlugin } from 'portico'
import type { FarcasterSignerApi } from './flow'
import { FARCASTER_SIGNER_SCREEN, INITIAL_FARCASTER_SIGNER_STATE, type FarcasterSignerState } from './state'

export type { FarcasterSignerApi, SignerFlowOptions } from './flow'
export type { FarcasterSignerReply } from './calls'
export type { CastAddBody, FarcasterNetworkName } from './cast'
export { FARCASTER_SIGNER, FARCASTER_SIGNER_SCREEN, FARCASTER_SIGNER_POLL_MS, FARCASTER_SIGNER_TIMEOUT_MS, FARCASTER_SIGNER_CLOSE_MS, INITIAL_FARCASTER_SIGNER_STATE } from './state'
export type { FarcasterSignerState, FarcasterSignerStatusName } from './state'
export { useFarcasterSigner } from './react'

export type FarcasterSignerTexts = typeof import('./strings').FARCASTER_SIGNER_TEXTS

declare module 'portico' {
  interface PluginApis {
    'farcaster-signer': FarcasterSignerApi
  }
}

export function farcasterSigner(): PorticoPlugin<'farcaster-signer'> {
  return definePlugin({
    id: 'farcaster-signer',
    kind: 'feature',
    // The error views and their texts load on use (nothing shows them before a user asks for a signer).
    errors: (_texts, ctx) => Promise.all([import('./errors'), import('./strings')]).then(([e, s]) => e.farcasterSignerErrors(() => ctx.texts(s.FARCASTER_SIGNER_TEXTS, 'farcaster-signer'))),
    screens: { [FARCASTER_SIGNER_SCREEN]: () => import('./screens/awaiting') },
    setup(ctx) {
      const state = ctx.store<FarcasterSignerState>(INITIAL_FARCASTER_SIGNER_STATE)
      const flow = ctx.lazy(() => import('./flow').then((m) => m.createFarcasterSigner(ctx, state)))
      ctx.provide<FarcasterSignerApi>({
        state,
        run: async (o) => (await flow()).run(o),
        requestFarcasterSigner: async () => (await flow()).requestFarcasterSigner(),
        getFarcasterSignerPublicKey: async () => (await flow()).getFarcasterSignerPublicKey(),
        signFarcasterMessage: async (hash) => (await flow()).signFarcasterMessage(hash),
        makeCastAdd: async (body, o) => (await flow()).makeCastAdd(body, o),
      })
    },
  })
}
