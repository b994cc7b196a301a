/**
 * portico/plugins/delegated-actions — 'Enable offline access' (spec part 2: 'Delegation',
 * sections 4, 5, 6, 7, 8, 9).
 *
 * ```ts
 * createPortico({ appId, plugins: [embeddedWallet({ frameUrl }), delegatedActions()] })
 * const { delegateWallet, revokeWallets } = useDelegatedActions()
 * await delegateWallet({ address, chainType: 'ethereum' })
 * ```
 * While a wallet is delegated, the app's own backend can have the reference server sign with
 * it (`POST /api/v1/wallets/{address}/rpc` with the app secret; see examples/server/README.md).
 * Consent hands the server that one wallet's key, sealed to the server inside the wallet frame;
 * revoking deletes it. Consent and revoke screens show success or error and close after 2.5 s.
 */
import { definePlugin, type PorticoPlugin } from 'portico'
import { delegatedActionsErrors } from './errors'
import { CONSENT_SCREEN, REVOKE_SCREEN, createDelegatedActions, type DelegatedActionsApi } from './flow'
import { DELEGATED_ACTIONS_TEXTS } from './strings'

export { CONSENT_SCREEN, REVOKE_SCREEN, RESULT_CLOSE_MS, createDelegatedActions, delegable } from './flow'
export type { DelegateOptions, DelegatedActionsApi, ConsentScreenParams, ScreenOutcome } from './flow'
export { revokeWallets, consentDelegation, FRAME_READY_TIMEOUT_MS } from './calls'
export type { FrameRequester } from './calls'
export { CONSENT_REQUEST } from './protocol'
export type { ConsentPayload, ConsentReply } from './protocol'
export { DELEGATED_ACTIONS, delegationError, delegatedActionsErrors } from './errors'
export { DELEGATED_ACTIONS_TEXTS } from './strings'
export { useDelegatedActions } from './react'

export type DelegatedActionsTexts = typeof DELEGATED_ACTIONS_TEXTS

declare module 'portico' {
  interface PluginApis {
    'delegated-actions': DelegatedActionsApi
  }
}

export function delegatedActions(): PorticoPlugin<'delegated-actions'> {
  return definePlugin({
    id: 'delegated-actions',
    kind: 'feature',
    setup(ctx) {
      ctx.declareErrors(delegatedActionsErrors(() => ctx.texts(DELEGATED_ACTIONS_TEXTS)))
      ctx.provide<DelegatedActionsApi>(createDelegatedActions(ctx))
      ctx.screens.register({ id: CONSENT_SCREEN, load: () => import('./screens/consent'), compact: true })
      ctx.screens.register({ id: REVOKE_SCREEN, load: () => import('./screens/revoke'), compact: true })
    },
  })
}
