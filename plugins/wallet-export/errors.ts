/**
 * Key export errors (spec part 2 section 8): the user must be logged in
 * (MUST_BE_AUTHENTICATED) and have an embedded wallet (EMBEDDED_WALLET_NOT_FOUND; for Solana
 * 'User does not have an HD Solana wallet.').
 */
import { defineErrors, type ErrorContext, type PorticoError } from 'portico'
import { WALLET_EXPORT } from './ids'
import { WALLET_EXPORT_TEXTS } from './strings'

export { WALLET_EXPORT, exportError } from './ids'

export function walletExportErrors(T: () => typeof WALLET_EXPORT_TEXTS = () => WALLET_EXPORT_TEXTS) {
  const mine = (e: PorticoError, ctx: ErrorContext) => e.data?.provider === WALLET_EXPORT || ctx.method === WALLET_EXPORT
  const view = (e: PorticoError) => ({ title: T().failedTitle, detail: e.message, cta: T().close, action: 'close' as const })
  return defineErrors({
    MUST_BE_AUTHENTICATED: (e, ctx) => (mine(e, ctx) ? view(e) : undefined),
    EMBEDDED_WALLET_NOT_FOUND: (e, ctx) => (mine(e, ctx) ? view(e) : undefined),
  })
}
