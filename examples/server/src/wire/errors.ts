/**
 * Every `code` the server answers in its error body (`WireError`): one union, so a factory or
 * a test that names a code the server does not have fails to compile.
 *
 * The spec's identity codes (part 1 section 8) are checked against the client's own
 * `IdentityErrorCode` (kernel/errors.ts, a type import: nothing of the client runs here); the
 * codes the spec does not name are the server's additions the plugins declare (custody, wallet
 * password, delegation, funding, chain info).
 */
import type { IdentityErrorCode } from '../../../../kernel/errors'
import { CUSTODY_CODES } from './custody'
import { PASSWORD_CODES } from './password'

/** The spec's codes this server answers (each must be one the client knows). */
export const SPEC_ERROR_CODES = [
  'missing_or_invalid_privy_app_id',
  'missing_or_invalid_token',
  'must_be_authenticated',
  'invalid_data',
  'invalid_captcha',
  'invalid_credentials',
  'captcha_failure',
  'linked_to_another_user',
  'cannot_link_more_of_type',
  'allowlist_rejected',
  'oauth_user_denied',
  'oauth_unexpected',
  'oauth_account_suspended',
  'too_many_requests',
  'max_accounts_reached',
  'disallowed_login_method',
  'disallowed_plus_email',
  'passkey_not_allowed',
  'user_does_not_exist',
  'account_transfer_required',
  'not_supported',
] as const satisfies readonly IdentityErrorCode[]

/** Codes the spec does not name, declared by the plugins that meet them. */
export const SERVER_ERROR_CODES = [
  'not_found',
  'forbidden',
  'internal_error',
  'delivery_failed',
  'method_not_supported',
  // embedded wallets
  'embedded_wallet_already_exists',
  'embedded_wallet_not_found',
  'embedded_wallets_disabled',
  'wallet_device_not_found',
  'step_up_code_expired',
  'step_up_code_void',
  // MFA
  'missing_or_invalid_mfa',
  'mfa_verification_max_attempts_reached',
  'unsupported_mfa_method',
  // delegation, funding, chain info
  'delegation_not_enabled',
  'delegation_policy_violation',
  'wallet_not_delegated',
  'funding_not_enabled',
  'funding_provider_unavailable',
  'price_unavailable',
  'rpc_unavailable',
] as const

export type WireErrorCode =
  | (typeof SPEC_ERROR_CODES)[number]
  | (typeof SERVER_ERROR_CODES)[number]
  | (typeof CUSTODY_CODES)[keyof typeof CUSTODY_CODES]
  | (typeof PASSWORD_CODES)[keyof typeof PASSWORD_CODES]
