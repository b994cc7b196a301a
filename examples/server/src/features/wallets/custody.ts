/**
 * Wallet custody (issue 26): the contract the share routes, the step-up routes and the wallet
 * frame share. No single stolen credential yields two shares:
 *
 * - every wallet request of the frame carries a device proof (header `portico-device-proof`): a
 *   compact JWS (ES256, `typ: portico-device+jwt`, the public JWK in the header) by the frame's
 *   non-extractable P-256 key, over `{ htm, htu, iat, jti, nonce, ath, eid }` (method, path
 *   under /api/v1, issued-at in seconds, a random id, a single-use server nonce, the base64url
 *   SHA-256 of the access token, the root's entropy id or null). The server answers every
 *   wallet route with the next nonce in `portico-device-nonce`;
 * - the auth share goes only to a registered, unrevoked device bound to the session;
 * - a device that is not registered (a new browser, cleared storage) gets the recovery share
 *   only after a step-up the token does not carry (a one-time code to the verified e-mail or
 *   phone, or a fresh MFA verification): a grant, single use, for one session, device and root;
 * - changing shares (set_recovery, add) needs a device proof and a signature by the root's
 *   index-0 key; replaced shares are kept for GRACE_S.
 *
 * Headers such as Origin are hints for browsers, never credentials.
 */
import type { Queryable } from '../../core/store'
import { insertStepUpGrant as insertGrant, type StepUpGrantRef } from './repo'

export { consumeStepUpGrant, hasStepUpGrant, type StepUpGrantRef } from './repo'

export { CUSTODY_CODES, CUSTODY_TEXTS, DEVICE_NONCE_HEADER, DEVICE_PROOF_HEADER, DEVICE_PROOF_TYP, ownerMessage, setRecoveryFields, type OwnerAction } from '../../wire/custody'
/** How long a device proof's iat is accepted (seconds, either side). */
export const PROOF_MAX_AGE_S = 60
/** How long a proof nonce lives (seconds). */
export const PROOF_NONCE_TTL_S = 300
/** How long a step-up grant lives once verified (seconds). */
export const STEP_UP_GRANT_TTL_S = 300
/** How long replaced shares are kept (seconds): 7 days. */
export const SHARE_GRACE_S = 7 * 86400


/** Records a verified step-up for one session, device and root (single use, STEP_UP_GRANT_TTL_S). */
export const insertStepUpGrant = (q: Queryable, ref: StepUpGrantRef, method: 'email' | 'sms' | 'mfa'): Promise<string> => insertGrant(q, ref, method, STEP_UP_GRANT_TTL_S)
