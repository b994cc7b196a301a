/** Coinbase Wallet's texts (its brand names; the connection messages are the wallet base's). */
export const COINBASE_WALLET_TEXTS = {
  name: 'Coinbase Wallet',
  smartWalletName: 'Coinbase Smart Wallet',
} as const

export type CoinbaseWalletTexts = { readonly [K in keyof typeof COINBASE_WALLET_TEXTS]: string }
