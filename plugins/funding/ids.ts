/** Screen ids of the funding base (prefixed with the plugin id). */
export const FUNDING_METHODS_SCREEN = 'funding-methods'
export const FUNDING_AMOUNT_SCREEN = 'funding-amount'
export const FUNDING_MANUAL_SCREEN = 'funding-manual'
export const FUNDING_WALLETS_SCREEN = 'funding-wallets'
export const FUNDING_WALLET_TRANSFER_SCREEN = 'funding-wallet-transfer'
export const FUNDING_PHANTOM_SCREEN = 'funding-phantom'

/** Spec part 2 section 9. */
export const MANUAL_POLL_MS = 2000
export const FUNDING_SUCCESS_CLOSE_MS = 4000
export const FUNDING_QR_SIZE = 200
