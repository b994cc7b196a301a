/** Screen ids and timings of the approvals plugin (part 2 section 9). */
export const SIGN_SCREEN = 'approvals-sign'
export const TRANSACTION_SCREEN = 'approvals-transaction'
export const SOLANA_TRANSACTION_SCREEN = 'approvals-solana-transaction'

/** Sign request readiness (part 2 section 9): the wallet service must be ready within 30 s. */
export const SIGN_READY_TIMEOUT_MS = 30_000
/** Success auto-close (part 2 section 9). */
export const SUCCESS_CLOSE_MS = 1400
