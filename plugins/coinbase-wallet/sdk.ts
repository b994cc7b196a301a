/**
 * The lazy half of the Coinbase Wallet connector: `@coinbase/wallet-sdk`'s provider (the
 * extension when it is installed, the Coinbase Wallet app's own browser, otherwise the smart
 * wallet's keys.coinbase.com popup), signed in with SIWE. Loaded when the user picks Coinbase.
 */
import { createCoinbaseWalletSDK } from '@coinbase/wallet-sdk'
import type { Eip1193Like } from 'portico/kits/wallet'

export interface CoinbaseSdkOptions {
  appName: string
  appLogoUrl?: string | null
  appChainIds: number[]
  preference: 'all' | 'smartWalletOnly' | 'eoaOnly'
  /** The smart wallet's popup origin (default keys.coinbase.com). */
  keysUrl?: string
}

export function coinbaseProvider(o: CoinbaseSdkOptions): Eip1193Like {
  const sdk = createCoinbaseWalletSDK({
    appName: o.appName,
    appLogoUrl: o.appLogoUrl ?? null,
    appChainIds: o.appChainIds,
    preference: { options: o.preference, ...(o.keysUrl ? { keysUrl: o.keysUrl } : {}) },
  })
  return sdk.getProvider() as unknown as Eip1193Like
}
