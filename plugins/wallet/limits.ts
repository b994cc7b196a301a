/** The wallet base's limits (spec part 1 section 9). */

/** Max wallet connection retries. */
export const MAX_WALLET_RETRIES = 2
/** Wallet request time-out. */
export const WALLET_REQUEST_TIMEOUT_MS = 120_000
/** Wallet provider detection time-out. */
export const PROVIDER_DETECTION_TIMEOUT_MS = 3_000
