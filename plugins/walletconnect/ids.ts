/** The WalletConnect plugin's names and timings (the entry needs them synchronously). */

/** MetaMask drops a request sent right after it approved the session (spec part 1 section 9). */
export const METAMASK_SIGNATURE_WAIT_MS = 2500

export const WALLETCONNECT_CONNECTOR_ID = 'walletconnect'
/** The QR code / deep-link screen (params `{ connectorId }`). */
export const WALLETCONNECT_SCREEN = 'walletconnect-connect'
