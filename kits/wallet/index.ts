/**
 * portico/kits/wallet — the wallet kit the wallet plugins build on (siwe, siws, WalletConnect,
 * Coinbase Wallet, Phantom, the embedded wallet): the 'Wallet' landing entry, the wallet list
 * and connection screens, the connector registry, and the host's wallet API. See ./README.md.
 *
 * The curated surface: what a wallet plugin and a host need. Screen ids other plugins open,
 * brand tables, account normalisers and the kit's timings stay in their files (./base.ts is the
 * kit's internal hub).
 */
// A wallet plugin: join the 'Wallet' entry, register connectors, report status, sign in.
export { setupWallet, loadWalletKit, walletConnectors, walletConnectionScreen, CONNECTORS_CHANGED, walletChains } from './base'
export type { WalletPluginInfo, WalletKit, WalletConnectionProps } from './base'
export { WALLET_CONNECT_SCREEN, WALLET_FAILED_SCREEN, WALLET_REDIRECT_SCREEN } from './ids'
export { WALLET_CONNECT_CODES } from './codes'
export { walletClientTypeOf, mobilePlatform } from './brands'
export { pageOrigin, pageUrl, navigateTo } from './page'
export { createConnectorStatus, pollAccounts, providerError, watchAccounts, connectedWallets } from './wallets'
export type { ConnectorStatusStore, ExternalWallet } from './wallets'
export { needsSignButton } from './connection'
export { signInMethod, type SignInWalletCalls } from './account'
export { setupSignInWallets } from './sign-in'
export type { SignInWalletsApi } from './sign-in'
export type {
  WalletLoginConnector,
  WalletConnection,
  ConnectionState,
  ConnectionStatus,
  ConnectionProgress,
  WalletIntent,
  WalletSignInResult,
  SignPrompt,
  CompleteFn,
  ConnectorStatus,
  Eip1193Like,
} from './connection'
export type { WalletTexts } from './strings'
/** Spec part 1 section 9: how long injected providers are waited for (siwe's EIP-6963 discovery uses the same). */
export { PROVIDER_DETECTION_TIMEOUT_MS } from './limits'

// A host: connect, list and unlink external wallets.
export { connectWallet, connectOrCreateWallet, useConnectWallet, useExternalWallets } from './host'
export type { ConnectWalletResult } from './host'
export { unlinkWallet, useUnlinkWallet } from './unlink'

import type { SmartWalletAccount, WalletAccount } from 'portico'

declare module 'portico' {
  interface UserFields {
    /** The first Ethereum or Solana wallet (external or embedded). */
    wallet?: WalletAccount
    smartWallet?: SmartWalletAccount
  }
}
