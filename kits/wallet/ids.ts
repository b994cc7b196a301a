/** The wallet base's names: its screens (prefixed 'wallet-') and its event. */
export const WALLET_LIST_SCREEN = 'wallet-list'
export const WALLET_CONNECT_SCREEN = 'wallet-connect'
/** Event a wallet plugin emits when its connectors change (a wallet announced itself). */
export const CONNECTORS_CHANGED = 'wallet-connectors:changed'
/** Install-wallet screen, params `{ brand }`. */
export const WALLET_INSTALL_SCREEN = 'wallet-install'
/** Mobile interstitial, params `{ connectorId }` or `{ brand }`. */
export const WALLET_REDIRECT_SCREEN = 'wallet-mobile-redirect'
/** Login failed after a redirect ('Could not connect with wallet'), params `{ connectorId }`. */
export const WALLET_FAILED_SCREEN = 'wallet-login-failed'
