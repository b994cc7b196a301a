/**
 * Delegated actions ('offline access', spec part 2 sections 2, 4, 5, 6), framework-free:
 * `delegateWallet` checks the delegation rules, runs the `sensitiveAction` chain (MFA) and opens
 * the consent screen 'Enable offline access'; `revokeWallets` needs a delegated wallet and opens
 * the revoke screen. Each screen shows success or error and closes after 2.5 s.
 */
import type { PluginContext, User } from 'portico'
import type { EmbeddedWallet, EmbeddedWalletApi } from 'portico/plugins/embedded-wallet'
import { consentDelegation, revokeWallets as revokeCall, type FrameRequester } from './calls'
import { delegationError } from './ids'
import { DELEGATED_ACTIONS_TEXTS } from './strings'

import { CONSENT_SCREEN, REVOKE_SCREEN } from './ids'

export { CONSENT_SCREEN, REVOKE_SCREEN, RESULT_CLOSE_MS } from './ids'

export interface DelegateOptions {
  address: string
  chainType: 'ethereum' | 'solana'
}

export interface ConsentScreenParams extends Record<string, unknown> {
  address: string
  chainType: 'ethereum' | 'solana'
  walletIndex: number
}

/** How a consent or revoke screen ended (its `close(value)`). */
export type ScreenOutcome = { done: true } | { error: unknown } | { declined: true }

export interface DelegatedActionsApi {
  /** Ask the user to delegate one embedded wallet ('Enable offline access'). Resolves once delegated. */
  delegateWallet(options: DelegateOptions): Promise<void>
  /** Ask the user to revoke every delegated wallet (needs at least one). Resolves once revoked. */
  revokeWallets(): Promise<void>
  /** For the consent screen: the frame seals the wallet's key to the server; the user record is updated. */
  consent(ew: Pick<EmbeddedWalletApi, 'wallets' | 'frame'> | null, params: ConsentScreenParams): Promise<User>
  /** For the revoke screen: POST /wallets/revoke; the user record is updated. */
  revoke(): Promise<User>
}

type SensitiveHooks = { sensitiveAction: { promise(c: { action: string; user: User | null; details?: Record<string, unknown> }): Promise<void> } }

const sameAddress = (a: string, b: string) => (a.startsWith('0x') ? a.toLowerCase() === b.toLowerCase() : a === b)

/** The embedded-wallet plugin's wallets (none without that plugin). */
const walletsOf = (ctx: PluginContext): EmbeddedWallet[] => ctx.plugin('embedded-wallet')?.wallets() ?? []

/** The wallet to delegate, or the spec's error. `all`: the embedded-wallet plugin's wallets. */
export function delegable(all: readonly EmbeddedWallet[], authenticated: boolean, o: DelegateOptions, T = DELEGATED_ACTIONS_TEXTS): EmbeddedWallet {
  if (!authenticated) throw delegationError('MUST_BE_AUTHENTICATED', T.mustBeAuthenticated)
  if (o.chainType !== 'ethereum' && o.chainType !== 'solana') throw delegationError('invalid_data', T.chainTypes)
  const mine = all.filter((w) => w.chainType === o.chainType)
  if (o.chainType === 'solana' && !mine.length) throw delegationError('EMBEDDED_WALLET_NOT_FOUND', T.needSolana)
  const w = typeof o.address === 'string' ? mine.find((x) => sameAddress(x.address, o.address)) : undefined
  if (!w) throw delegationError('invalid_data', T.notAssociated)
  return w
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
      await (ctx.hooks as unknown as SensitiveHooks).sensitiveAction.promise({
        action: 'delegate_wallet',
        user: ctx.session.user,
        details: { address: w.address, chainType: w.chainType },
      })
      const params: ConsentScreenParams = { address: w.address, chainType: w.chainType, walletIndex: w.walletIndex }
      outcome(await ctx.screens.open(CONSENT_SCREEN, params), T())
    },
    async revokeWallets() {
      const user = ctx.session.user
      if (!ctx.session.authenticated || !user) throw delegationError('MUST_BE_AUTHENTICATED', T().mustBeAuthenticated)
      if (!walletsOf(ctx).some((w) => w.delegated)) throw delegationError('invalid_data', T().nothingToRevoke)
      outcome(await ctx.screens.open(REVOKE_SCREEN, {}), T())
    },
    async consent(ew, params) {
      const frame = await ew?.frame?.()
      if (!frame) throw delegationError('EMBEDDED_WALLET_NOT_FOUND', T().noWalletFrame)
      const w = delegable(ew?.wallets() ?? [], signedIn(), params, T())
      const token = await ctx.session.getAccessToken()
      if (!token) throw delegationError('MUST_BE_AUTHENTICATED', T().mustBeAuthenticated)
      const res = await consentDelegation(frame as FrameRequester, {
        accessToken: token,
        entropyId: w.entropyId,
        entropyIdVerifier: w.entropyIdVerifier,
        address: w.address,
        chainType: w.chainType,
        walletIndex: w.walletIndex,
      })
      return ctx.session.setUser(res.user)
    },
    async revoke() {
      const res = await revokeCall(ctx.api)
      return ctx.session.setUser(res.user)
    },
  }
}
