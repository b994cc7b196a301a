/**
 * The approvals plugin's errors: EIP-1193 provider errors (4001 user rejected, 32603 internal,
 * 4200, 4900) for what `handle()` rejects with; the transaction error codes the error screen
 * shows (ethers-style: CALL_EXCEPTION, NONCE_EXPIRED, REPLACEMENT_UNDERPRICED,
 * TRANSACTION_REPLACED, INSUFFICIENT_FUNDS …) and which of them reset the nonce on retry; the
 * error views (part 2 section 8 'Error screen mapping').
 */
import { PorticoError, defineErrors } from 'portico'
// Through ./index (the entry's class): what the lazy modules share with the entry stays one chunk.
import { ProviderRpcError, USER_REJECTED } from './index'
import { APPROVALS_TEXTS } from './strings'

export { ProviderRpcError, USER_REJECTED, INTERNAL_ERROR } from './rpc-error'

export const userRejected = () => new ProviderRpcError(USER_REJECTED, APPROVALS_TEXTS.userRejected)

/** Errors whose transaction reached the chain (they carry a hash): a retry resets the nonce. */
export const NONCE_RESET_CODES = new Set(['CALL_EXCEPTION', 'NONCE_EXPIRED', 'REPLACEMENT_UNDERPRICED', 'TRANSACTION_REPLACED'])

export interface TransactionFailure {
  /** ethers-style code shown on the error screen. */
  code: string
  message: string
  hash?: string
}

const text = (e: unknown) => {
  const parts: string[] = []
  for (const x of PorticoError.walk(e)) {
    const o = x as { name?: string; shortMessage?: string; details?: string; message?: string }
    parts.push(o?.name ?? '', o?.shortMessage ?? '', o?.details ?? '', o?.message ?? '')
  }
  return parts.join(' ')
}

/** Classifies what viem (or the RPC) threw into the code the error screen shows. */
export function classifyEvmError(e: unknown, hash?: string): TransactionFailure {
  const all = text(e)
  const first = e as { shortMessage?: string; details?: string; message?: string }
  const message = first?.details || first?.shortMessage || first?.message || String(e)
  const code = /nonce too low|nonce has already been used|NonceTooLow/i.test(all)
    ? 'NONCE_EXPIRED'
    : /replacement transaction underpriced|replacement fee too low/i.test(all)
      ? 'REPLACEMENT_UNDERPRICED'
      : /transaction replaced|TransactionReplaced/i.test(all)
        ? 'TRANSACTION_REPLACED'
        : /insufficient funds|InsufficientFunds/i.test(all)
          ? 'INSUFFICIENT_FUNDS'
          : /revert|CALL_EXCEPTION|execution reverted|ContractFunctionRevertedError/i.test(all)
            ? 'CALL_EXCEPTION'
            : /timed? ?out|TimeoutError/i.test(all)
              ? 'TIMEOUT'
              : 'UNKNOWN_ERROR'
  return { code, message, ...(hash ? { hash } : {}) }
}

/** Whether a retry after this failure asks the chain for a fresh nonce. */
export const resetsNonce = (f: TransactionFailure) => NONCE_RESET_CODES.has(f.code) && !!f.hash

/** A Solana failure: a log line about insufficient lamports or funds replaces the message. */
export function solanaFailureMessage(message: string, logs: readonly string[] = []): string {
  const line = logs.find((l) => /insufficient (lamports|funds)/i.test(l))
  return line ?? message
}

/**
 * A Solana send failure as the error screen shows it: the runtime's code (AlreadyProcessed,
 * BlockhashNotFound, InsufficientFundsForFee, InstructionError; TIMEOUT; null when unknown) and
 * a clear text for it, from what the RPC or @solana/web3.js said (e.g. SendTransactionError's
 * 'Simulation failed … call `getLogs()`', which is for developers). A log line about
 * insufficient lamports or funds replaces the text (spec part 2 section 8).
 */
export function classifySolanaFailure(raw: string, logs: readonly string[] = []): { code: string | null; message: string } {
  const code = /AlreadyProcessed|already been processed/i.test(raw)
    ? 'AlreadyProcessed'
    : /BlockhashNotFound|Blockhash not found|block height exceeded|has expired/i.test(raw)
      ? 'BlockhashNotFound'
      : /InsufficientFundsForFee|insufficient funds for fee/i.test(raw)
        ? 'InsufficientFundsForFee'
        : /InstructionError/.test(raw)
          ? 'InstructionError'
          : /not confirmed in time|timed? ?out/i.test(raw)
            ? 'TIMEOUT'
            : null
  const texts: Record<string, string> = {
    AlreadyProcessed: T.solanaAlreadyProcessed,
    BlockhashNotFound: T.solanaExpired,
    InsufficientFundsForFee: T.solanaInsufficientFunds,
    InstructionError: T.solanaRejected,
    TIMEOUT: T.solanaNotConfirmed,
  }
  const text = code ? texts[code] : undefined
  return { code, message: solanaFailureMessage(text ?? T.solanaNotSent, logs) }
}

const T = APPROVALS_TEXTS

/** Error screen mapping (part 2 section 8). */
export const APPROVALS_ERRORS = defineErrors({
  client_request_timeout: (error, ctx) =>
    ctx.method === 'approvals' ? { title: T.timedOut, detail: error.message, cta: T.tryAgain, action: 'back' } : undefined,
  INSUFFICIENT_BALANCE: (error, ctx) =>
    ctx.method === 'approvals' ? { title: T.insufficientBalance, detail: error.message } : undefined,
  TRANSACTION_FAILURE: (error, ctx) =>
    ctx.method === 'approvals' ? { title: T.transactionFailure, detail: error.message } : undefined,
})
