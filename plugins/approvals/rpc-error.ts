/**
 * The EIP-1193 error class and codes `handle()` rejects with (4001 user rejected, -32603
 * internal), held by the entry: hosts and the embedded wallet's provider check them. The
 * approvals errors and their texts (./errors.ts) load with the engine.
 */
/** An EIP-1193 ProviderRpcError (viem maps code 4001 to UserRejectedRequestError). */
export class ProviderRpcError extends Error {
  readonly code: number
  readonly data?: unknown
  constructor(code: number, message: string, options: { cause?: unknown; data?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'ProviderRpcError'
    this.code = code
    this.data = options.data
  }
}

export const USER_REJECTED = 4001
export const INTERNAL_ERROR = -32603

