/** The chains the app shows wallets for (appearance.walletChainType). */
export function walletChains(walletChainType: string | undefined): Set<'ethereum' | 'solana'> {
  switch (walletChainType) {
    case 'solana-only':
      return new Set(['solana'])
    case 'ethereum-and-solana':
      return new Set(['ethereum', 'solana'])
    default:
      return new Set(['ethereum'])
  }
}
