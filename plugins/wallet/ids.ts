/** The wallet base's names: its screens (prefixed 'wallet-') and its event. */
export const WALLET_LIST_SCREEN = 'wallet-list'
export const WALLET_CONNECT_SCREEN = 'wallet-connect'
/** Event a wallet plugin emits when its connectors change (a wallet announced itself). */
export const CONNECTORS_CHANGED = 'wallet-connectors:changed'
