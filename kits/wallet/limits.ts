/** The wallet base's limits (spec part 1 section 9). */

/** Max wallet connection retries. */
export const MAX_WALLET_RETRIES = 2
/** Wallet request time-out. */
export const WALLET_REQUEST_TIMEOUT_MS = 120_000
/** Wallet provider detection time-out. */
export const PROVIDER_DETECTION_TIMEOUT_MS = 3_000
/** Account polling: attempts, and the wait between them. */
export const ACCOUNT_POLL_ATTEMPTS = 10
export const ACCOUNT_POLL_INTERVAL_MS = 500
/** Connector initialisation grace: how long the list waits for connectors still initialising. */
export const CONNECTOR_INIT_GRACE_MS = 1_500
/** The mobile interstitial offers 'Go to App Store' after this long if the page is still here. */
export const APP_STORE_FALLBACK_MS = 1_000
