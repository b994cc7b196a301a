/** Farcaster signers' errors (texts of spec part 2 section 8 where it names them). */
import { ApiError } from '../../core/errors'

export const SIGNER_MSG = {
  needWallet: 'Must have an embedded wallet to use Farcaster signers',
  needFarcaster: 'Must have Farcaster account to use Farcaster signers',
} as const

export const signerErrors = {
  needWallet: () => new ApiError(400, 'invalid_data', SIGNER_MSG.needWallet),
  needFarcaster: () => new ApiError(400, 'invalid_data', SIGNER_MSG.needFarcaster),
  notConfigured: () => new ApiError(403, 'not_supported', 'Farcaster signers are not configured for this app (farcasterSigner: appFid and its custody key).'),
  notYours: () => new ApiError(403, 'forbidden', 'This signer key belongs to another user.'),
  unknown: () => new ApiError(404, 'not_found', 'Unknown Farcaster signer: request it with /farcaster/signer/init first.'),
  otherFid: (fid: number) => new ApiError(400, 'invalid_data', `The signer was approved by Farcaster account ${fid}, not the linked one.`),
  /** The Farcaster client API is down or refused the app's signed request (the operator's configuration, not the user's input). */
  unavailable: (why: string) => new ApiError(503, 'not_supported', `Farcaster signers are unavailable right now: ${why}`.slice(0, 300)),
}
