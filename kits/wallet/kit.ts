/**
 * The wallet base's flow helpers, loaded on use (`loadWalletKit()` from the entry): error
 * mapping and texts of the awaiting-connection screen, the wallet request time-out, the
 * connection state machine, the wallet texts. Connectors call them inside their (lazy)
 * connect / sign-in code; the entry (./index.ts) keeps what must run before the user acts.
 */
export {
  toWalletError,
  walletErrorCode,
  walletErrorText,
  walletErrors,
  isWalletConnectError,
  canRetry,
  withWalletTimeout,
  STANDARD_WALLET_ERRORS,
} from './errors'
export { createWalletConnection } from './connect-flow'
export { WALLET_TEXTS } from './strings'
