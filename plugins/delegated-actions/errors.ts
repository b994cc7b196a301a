/**
 * Delegated actions' errors: the spec's delegation rules (section 5) with their texts
 * (section 8). The consent and revoke screens show a failure themselves and close after 2.5 s;
 * these views serve errors raised before a screen opens.
 */
import { defineErrors, type ErrorContext, type PorticoError } from 'portico'
import { DELEGATED_ACTIONS } from './ids'
import { DELEGATED_ACTIONS_TEXTS } from './strings'

export { DELEGATED_ACTIONS, delegationError } from './ids'

export function delegatedActionsErrors(T: () => typeof DELEGATED_ACTIONS_TEXTS = () => DELEGATED_ACTIONS_TEXTS) {
  const mine = (e: PorticoError, ctx: ErrorContext) => e.data?.provider === DELEGATED_ACTIONS || ctx.method === DELEGATED_ACTIONS
  const view = (e: PorticoError) => ({ title: T().failedTitle, detail: e.message, cta: 'Close', action: 'close' as const })
  return defineErrors({
    MUST_BE_AUTHENTICATED: (e, ctx) => (mine(e, ctx) ? view(e) : undefined),
    EMBEDDED_WALLET_NOT_FOUND: (e, ctx) => (mine(e, ctx) ? view(e) : undefined),
    invalid_data: (e, ctx) => (mine(e, ctx) ? view(e) : undefined),
  })
}
