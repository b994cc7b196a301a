/**
 * Farcaster signers' errors raised before or beside the screen (spec part 2 section 8: 'Must
 * have an embedded wallet to use Farcaster signers', 'Must have Farcaster account to use
 * Farcaster signers'): the error screen names them ('Connect failed' and the text) and closes.
 * 'Request rejected' and the 5-minute 'Connect failed' are the awaiting screen's own states.
 */
import { defineErrors, type ErrorContext, type PorticoError } from 'portico'
import { FARCASTER_SIGNER } from './state'
import { FARCASTER_SIGNER_TEXTS } from './strings'

export function farcasterSignerErrors(T: () => typeof FARCASTER_SIGNER_TEXTS = () => FARCASTER_SIGNER_TEXTS) {
  const mine = (e: PorticoError, ctx: ErrorContext) => e.data?.provider === FARCASTER_SIGNER || ctx.method === FARCASTER_SIGNER
  const view = (e: PorticoError) => ({ title: T().failedTitle, detail: e.message, cta: 'Close', action: 'close' as const })
  return defineErrors({
    must_be_authenticated: (e, ctx) => (mine(e, ctx) ? view(e) : undefined),
    invalid_data: (e, ctx) => (mine(e, ctx) ? view(e) : undefined),
  })
}
