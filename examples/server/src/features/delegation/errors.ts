/** Delegation's error texts and errors. */
import { ApiError } from '../../core/errors'

export const DELEGATION_MSG = {
  // Spec part 2, section 8 (word for word).
  notAssociated: 'Address to delegate is not associated with current user.',
  needSolana: 'User must have a solana wallet in order to delegate actions',
  // Ours (the spec names the rule, not its text).
  chainTypes: 'Delegation works only for Ethereum and Solana wallets.',
  nothingToRevoke: 'User has no delegated wallets to revoke.',
  badSeal: 'The sealed wallet key could not be opened.',
  keyMismatch: 'The sealed key does not belong to this wallet.',
  noSecret: 'This app has no app secret (appSecret or appSecretEnv in its settings): delegated actions are off.',
  badSecret: 'Missing or invalid app secret.',
  fromBrowser: 'The app secret belongs on the app’s backend: requests from a browser are refused.',
  notDelegated: 'This wallet is not delegated to the app.',
  wrongChain: (method: string, chain: string) => `Method ${method} is not available for a ${chain} wallet.`,
  // The policy (issue 26): what the backend is told when the server refuses to sign.
  expired: 'This delegation has expired: the user must enable offline access again.',
  methodNotAllowed: (method: string) => `This delegation does not allow ${method}.`,
  chainIdRequired: 'params.transaction.chain_id: Required (a delegated transaction must name its chain)',
  typedChainRequired: 'params.typed_data.domain.chainId: Required (typed data signed by a delegation must name its chain)',
  chainNotAllowed: (id: string) => `This delegation does not allow chain ${id}.`,
  contractNotAllowed: (to: string) =>
    to ? `This delegation does not allow ${to} (not in its contract allow-list).` : 'This delegation does not allow a contract creation or typed data without a verifyingContract.',
  overTxCap: 'The value is over this delegation’s limit per transaction.',
  overDayCap: 'The value is over this delegation’s limit per day.',
} as const

export const notDelegated = () => new ApiError(404, 'wallet_not_delegated', DELEGATION_MSG.notDelegated)

/** Audit reasons (wallet_delegation_audit.reason) of a refused request. */
export type RefusalReason =
  | 'not_delegated'
  | 'expired'
  | 'method_not_allowed'
  | 'chain_id_required'
  | 'chain_not_allowed'
  | 'contract_not_allowed'
  | 'value_over_tx_cap'
  | 'value_over_day_cap'
  | 'invalid_request'

/** A refusal by the policy: 403 `delegation_policy_violation` (reason in the body and the audit). */
export class PolicyRefusal extends ApiError {
  constructor(
    readonly reason: RefusalReason,
    message: string,
    status: 403 | 422 = 403,
    data: Record<string, unknown> = {},
  ) {
    super(status, status === 403 ? 'delegation_policy_violation' : 'invalid_data', message, { reason, ...data })
  }
}
