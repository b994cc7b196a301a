/**
 * Delegated actions ('offline access', spec part 2 sections 2, 4, 5, 6), framework-free:
 * `delegateWallet` checks the delegation rules, runs the `sensitiveAction` chain (MFA) and opens
 * the consent screen 'Enable offline access'; `revokeWallets` needs a delegated wallet and opens
 * the revoke screen. Each screen shows success or error and closes after 2.5 s.
 */
import type { PluginContext, User } from 'portico'
import type { EmbeddedWallet, EmbeddedWalletApi } from 'portico/plugins/embedded-wallet'
import { requestConsent, revokeWallets as revokeCall, type ConsentFrameTarget } from './calls'
import { delegationError } from './ids'
import { normalizePolicy, PolicyError, type DelegationPolicy, type DelegationPolicyInput } from './policy'
import { DELEGATED_ACTIONS_TEXTS } from './strings'

import { CONSENT_SCREEN, REVOKE_SCREEN } from './ids'

export { CONSENT_SCREEN, REVOKE_SCREEN, RESULT_CLOSE_MS } from './ids'

export interface DelegateOptions {
  address: string
  chainType: 'ethereum' | 'solana'
  /**
   * What the app's backend may have the server sign (see ./policy.ts). Left out: message
   * signing only, for 30 days. The user sees it on the consent page; the server enforces it.
   */
  policy?: DelegationPolicyInput
}

export interface ConsentScreenParams extends Record<string, unknown> {
  address: string
  chainType: 'ethereum' | 'solana'
  walletIndex: number
  /** The proposed policy, normalised (the consent page shows and seals it). */
  policy: DelegationPolicy
}

/** How a consent or revoke screen ended (its `close(value)`). */
export type ScreenOutcome = { done: true } | { error: unknown } | { declined: true }

export interface DelegatedActionsApi {
  /** Ask the user to delegate one embedded wallet ('Enable offline access'). Resolves once delegated. */
  delegateWallet(options: DelegateOptions): Promise<void>
  /** Ask the user to revoke every delegated wallet (needs at least one). Resolves once revoked. */
  revokeWallets(): Promise<void>
  /**
   * For the consent screen: the handshake with the consent page in `frame` (on the wallet
   * service's `origin`); once the user allowed there, the user record is updated.
   */
  consent(ew: Pick<EmbeddedWalletApi, 'wallets' | 'walletPage'> | null, params: ConsentScreenParams, frame: ConsentFrameTarget, origin: string, signal?: AbortSignal): Promise<{ user: User } | { declined: true }>
  /** For the revoke screen: POST /wallets/revoke; the user record is updated. */
  revoke(): Promise<User>
}

type SensitiveHooks = { sensitiveAction: { promise(c: { action: string; user: User | null; details?: Record<string, unknown> }): Promise<void> } }

const sameAddress = (a: string, b: string) => (a.startsWith('0x') ? a.toLowerCase() === b.toLowerCase() : a === b)

/** The embedded-wallet plugin's wallets (none without that plugin). */
const walletsOf = (ctx: PluginContext): EmbeddedWallet[] => ctx.plugin('embedded-wallet')?.wallets() ?? []

/** The wallet to delegate, or the spec's error. `all`: the embedded-wallet plugin's wallets. */
export function delegable(all: readonly EmbeddedWallet[], authenticated: boolean, o: Pick<DelegateOptions, 'address' | 'chainType'>, T = DELEGATED_ACTIONS_TEXTS): EmbeddedWallet {
  if (!authenticated) throw delegationError('MUST_BE_AUTHENTICATED', T.mustBeAuthenticated)
  if (o.chainType !== 'ethereum' && o.chainType !== 'solana') throw delegationError('invalid_data', T.chainTypes)
  const mine = all.filter((w) => w.chainType === o.chainType)
  if (o.chainType === 'solana' && !mine.length) throw delegationError('EMBEDDED_WALLET_NOT_FOUND', T.needSolana)
  const w = typeof o.address === 'string' ? mine.find((x) => sameAddress(x.address, o.address)) : undefined
  if (!w) throw delegationError('invalid_data', T.notAssociated)
  return w
}

/** The host's proposed policy with the defaults, or its mistake (a developer-facing text). */
export function proposedPolicy(o: DelegateOptions): DelegationPolicy {
  try {
    return normalizePolicy(o.chainType, o.policy)
  } catch (err) {
    if (err instanceof PolicyError) throw delegationError('invalid_data', err.message)
    throw err
  }
}

function outcome(r: { ok: true; value?: unknown } | { ok: false; error: Error }, T: typeof DELEGATED_ACTIONS_TEXTS): void {
  const v = (r.ok ? r.value : undefined) as ScreenOutcome | undefined
  if (v && 'done' in v) return
  if (v && 'error' in v) throw v.error
  throw delegationError('user_rejected', T.declined, r.ok ? undefined : r.error)
}

export function createDelegatedActions(ctx: PluginContext): DelegatedActionsApi {
  const T = () => ctx.texts(DELEGATED_ACTIONS_TEXTS)
  const signedIn = () => ctx.session.authenticated && !!ctx.session.user
  return {
    async delegateWallet(options) {
      const w = delegable(walletsOf(ctx), signedIn(), options, T())
      const policy = proposedPolicy(options)
      await (ctx.hooks as unknown as SensitiveHooks).sensitiveAction.promise({
        action: 'delegate_wallet',
        user: ctx.session.user,
        details: { address: w.address, chainType: w.chainType },
      })
      const params: ConsentScreenParams = { address: w.address, chainType: w.chainType, walletIndex: w.walletIndex, policy }
      outcome(await ctx.screens.open(CONSENT_SCREEN, params), T())
    },
    async revokeWallets() {
      const user = ctx.session.user
      if (!ctx.session.authenticated || !user) throw delegationError('MUST_BE_AUTHENTICATED', T().mustBeAuthenticated)
      if (!walletsOf(ctx).some((w) => w.delegated)) throw delegationError('invalid_data', T().nothingToRevoke)
      outcome(await ctx.screens.open(REVOKE_SCREEN, {}), T())
    },
    async consent(ew, params, frame, origin, signal) {
      const w = delegable(ew?.wallets() ?? [], signedIn(), params, T())
      // `delegable` found the wallet among ew's: the plugin is there.
      const reply = await requestConsent(
        await ew!.walletPage(),
        frame,
        origin,
        async () => {
          const token = await ctx.session.getAccessToken()
          if (!token) throw delegationError('MUST_BE_AUTHENTICATED', T().mustBeAuthenticated)
          return {
            accessToken: token,
            entropyId: w.entropyId,
            entropyIdVerifier: w.entropyIdVerifier,
            address: w.address,
            chainType: w.chainType,
            walletIndex: w.walletIndex,
            policy: params.policy,
          }
        },
        { signal },
      )
      if ('declined' in reply) return { declined: true }
      return { user: ctx.session.setUser(reply.user) }
    },
    async revoke() {
      const res = await revokeCall(ctx.api)
      return ctx.session.setUser(res.user)
    },
  }
}
