/** Smart wallets' errors (issue 29). */
import { ApiError } from '../../core/errors'

export const smartWalletErrors = {
  disabled: () => new ApiError(403, 'not_supported', 'Smart wallets are not enabled for this app.'),
  wrongType: (given: string, type: string) =>
    new ApiError(400, 'invalid_data', `Smart wallet type ${given} is not enabled for this app (it uses ${type}).`, { fields: { smart_wallet_type: `must be ${type}` } }),
  wrongChain: (chainId: number | undefined) =>
    new ApiError(401, 'invalid_credentials', `SIWE message chain ${chainId ?? '(none)'} is not one of this app's smart-wallet networks.`),
  noRpc: (chainId: number) =>
    new ApiError(503, 'not_supported', `The server has no RPC URL for chain ${chainId} (smartWallets.networks[].rpcUrl or PORTICO_RPC_URLS): it cannot check a smart-account signature.`),
  notSmartAccount: () => new ApiError(401, 'invalid_credentials', 'The address is not a smart account: no contract code and no ERC-6492 signature.'),
  badSignature: () => new ApiError(401, 'invalid_credentials', 'Invalid signature'),
}

/** JSON-RPC errors of the paymaster (ERC-7677): the HTTP answer is 200 with an `error` member. */
export class PaymasterRefusal extends Error {
  constructor(
    readonly rpcCode: number,
    message: string,
    readonly reason: string,
  ) {
    super(message)
  }
}

export const paymasterErrors = {
  method: (m: string) => new PaymasterRefusal(-32601, `Method not found: ${m} (pm_getPaymasterStubData, pm_getPaymasterData)`, 'method_not_found'),
  params: (why: string) => new PaymasterRefusal(-32602, `Invalid params: ${why}`, 'invalid_params'),
  entryPoint: (ep: string) => new PaymasterRefusal(-32602, `Sponsorship refused: EntryPoint ${ep} is not supported (v0.7, or v0.8 for EIP-7702 accounts).`, 'unsupported_entry_point'),
  chain: (chainId: number) => new PaymasterRefusal(-32001, `Sponsorship refused: chain ${chainId} is not sponsored for this app.`, 'chain_not_sponsored'),
  notYours: () => new PaymasterRefusal(-32001, "Sponsorship refused: the sender is not the user's linked smart wallet.", 'sender_not_linked'),
  dailyLimit: (limit: number) => new PaymasterRefusal(-32001, `Sponsorship refused: the daily limit of ${limit} sponsored operations per user is reached.`, 'daily_limit_reached'),
  replay: () => new PaymasterRefusal(-32001, 'Sponsorship refused: this nonce was already used (replay).', 'nonce_used'),
  gasLimit: (what: string) => new PaymasterRefusal(-32001, `Sponsorship refused: ${what} is above the paymaster's limit.`, 'gas_limit'),
  maxCost: (cost: bigint, max: bigint) => new PaymasterRefusal(-32001, `Sponsorship refused: the operation may cost up to ${cost} wei, above the policy's ${max} wei.`, 'max_cost'),
  delegation: (target: string | null) =>
    new PaymasterRefusal(
      -32001,
      target
        ? `Sponsorship refused: the account delegates to ${target}, which this paymaster does not sponsor (EIP-7702: Simple7702Account only).`
        : 'Sponsorship refused: the sender is not an EIP-7702 account (no delegation on chain and no authorisation in the operation).',
      'delegation_not_allowed',
    ),
  unavailable: (why: string) => new PaymasterRefusal(-32603, `Paymaster unavailable: ${why}`.slice(0, 300), 'unavailable'),
}
