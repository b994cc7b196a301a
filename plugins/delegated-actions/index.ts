/**
 * portico/plugins/delegated-actions — 'Enable offline access' (spec part 2: 'Delegation',
 * sections 4, 5, 6, 7, 8, 9).
 *
 * ```ts
 * createPortico({ appId, plugins: [embeddedWallet({ frameUrl }), delegatedActions()] })
 * const { delegateWallet, revokeWallets } = useDelegatedActions()
 * await delegateWallet({ address, chainType: 'ethereum', policy: { methods: ['eth_signTransaction'], chainIds: [8453], maxValuePerTx: '10000000000000000' } })
 * ```
 * While a wallet is delegated, the app's own backend can have the reference server sign with
 * it (`POST /api/v1/wallets/{address}/rpc` with the app secret; see examples/server/README.md),
 * inside the policy the user allowed. Consent is given on the wallet service's consent page (a
 * visible iframe), which seals that one wallet's key with the policy to the server; revoking
 * deletes it. Consent and revoke screens show success or error and close after 2.5 s.
 */
import { definePlugin, type PorticoPlugin } from 'portico'
import { CONSENT_SCREEN, REVOKE_SCREEN } from './ids'
import type { DelegatedActionsApi } from './flow'
import type { DELEGATED_ACTIONS_TEXTS } from './strings'

// Only what a host needs at start-up is static; the flow and the screens load on first use
// (they stay importable from their files for tests and advanced hosts).
export type { DelegateOptions, DelegatedActionsApi, ConsentScreenParams, ScreenOutcome } from './flow'
export type { ConsentFrameTarget } from './calls'
export type { ConsentPayload, ConsentReply } from './protocol'
export type { DelegationPolicy, DelegationPolicyInput, DelegatedMethod } from './policy'
export { CONSENT_SCREEN, REVOKE_SCREEN, RESULT_CLOSE_MS } from './ids'
export { DELEGATED_ACTIONS, delegationError } from './ids'
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
    // The errors and their texts load on use (the texts are not the manifest's: nothing shows them before a user delegates).
    errors: (_texts, ctx) => Promise.all([import('./errors'), import('./strings')]).then(([e, s]) => e.delegatedActionsErrors(() => ctx.texts(s.DELEGATED_ACTIONS_TEXTS))),
    // Full height: the consent page lists the policy.
    screens: { [CONSENT_SCREEN]: () => import('./screens/consent'), [REVOKE_SCREEN]: { load: () => import('./screens/revoke'), compact: true } },
    setup(ctx) {
      // The flow loads on first use: an app pays for delegation only when a user delegates.
      const api = ctx.lazy(() => import('./flow').then((m) => m.createDelegatedActions(ctx)))
      ctx.provide<DelegatedActionsApi>(api.methods('delegateWallet', 'revokeWallets', 'consent', 'revoke'))
    },
  })
}
