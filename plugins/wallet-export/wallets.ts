/**
 * The user's embedded wallets as export needs them, and what it needs from the
 * embedded-wallet plugin (`kernel.plugin('embedded-wallet')`): the wallet frame's origin (the
 * export page lives there too) and each wallet's HD root (entropy id and verifier).
 */
import type { User, WalletAccount } from 'portico'

export interface EmbeddedWallet {
  address: string
  chainType: 'ethereum' | 'solana'
  walletIndex: number
  delegated: boolean
}

export interface RootRef {
  entropyId: string
  entropyIdVerifier: 'ethereum-address-verifier' | 'solana-address-verifier'
}

/** The user's embedded wallets (linked wallet accounts whose client type is 'privy', spec section 3). */
export function embeddedWallets(user: User | null): EmbeddedWallet[] {
  if (!user) return []
  return user.linkedAccounts
    .filter((a): a is WalletAccount => a.type === 'wallet' && (a as WalletAccount).walletClientType === 'privy')
    .map((a) => ({ address: a.address, chainType: a.chainType, walletIndex: a.walletIndex ?? 0, delegated: !!a.delegated }))
}

export const sameAddress = (a: string, b: string) => (a.startsWith('0x') ? a.toLowerCase() === b.toLowerCase() : a === b)

/** The structural part of the embedded-wallet plugin's API this plugin relies on. */
export interface EmbeddedWalletLike {
  wallets?(): { address: string; chainType: string; walletIndex?: number | null; entropyId?: string; entropyIdVerifier?: string }[]
  /** Its settings: `frameUrl` is the wallet service's origin. */
  readonly settings?: { frameUrl?: string }
}

/**
 * The root a wallet belongs to: the plugin's wallet objects when they carry it, else the
 * user's index-0 wallet (an HD root is named by its index-0 address; Ethereum first).
 */
export function rootOf(wallet: EmbeddedWallet, all: EmbeddedWallet[], ew?: EmbeddedWalletLike | null): RootRef | null {
  const known = ew?.wallets?.().find((w) => sameAddress(w.address, wallet.address))
  if (known?.entropyId && (known.entropyIdVerifier === 'ethereum-address-verifier' || known.entropyIdVerifier === 'solana-address-verifier')) {
    return { entropyId: known.entropyId, entropyIdVerifier: known.entropyIdVerifier }
  }
  const eth = all.find((w) => w.chainType === 'ethereum' && w.walletIndex === 0)
  if (eth) return { entropyId: eth.address, entropyIdVerifier: 'ethereum-address-verifier' }
  const sol = all.find((w) => w.chainType === 'solana' && w.walletIndex === 0)
  return sol ? { entropyId: sol.address, entropyIdVerifier: 'solana-address-verifier' } : null
}

/** The wallet service's origin, from the embedded-wallet plugin. */
export function frameOrigin(ew?: EmbeddedWalletLike | null): string | null {
  const raw = ew?.settings?.frameUrl
  if (!raw) return null
  try {
    return new URL(raw).origin
  } catch {
    return null
  }
}
