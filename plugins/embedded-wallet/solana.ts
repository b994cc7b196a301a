/**
 * The embedded Solana wallet as a wallet-standard wallet (loaded lazily once the user has a
 * Solana embedded wallet): `standard:connect`, `standard:disconnect`, `standard:events`,
 * `solana:signMessage` and `solana:signTransaction`, signed in the wallet frame (or through
 * the approvals plugin's screens when one is set up).
 */
import { registerWallet } from '@wallet-standard/wallet'
import type { IdentifierArray, Wallet, WalletAccount, WalletIcon } from '@wallet-standard/base'
import { base58 } from '@scure/base'
import type { ApprovalsLike } from './provider'
import type { EmbeddedWallet, EmbeddedWalletApi } from './wallets'

export const SOLANA_CHAINS = ['solana:mainnet', 'solana:devnet', 'solana:testnet', 'solana:localnet'] as const
const FEATURES = ['solana:signMessage', 'solana:signTransaction'] as const

const ICON: WalletIcon =
  'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAzMiAzMiI+PHJlY3Qgd2lkdGg9IjMyIiBoZWlnaHQ9IjMyIiByeD0iOCIgZmlsbD0iIzY2NTFmZiIvPjxwYXRoIGQ9Ik05IDEyaDE0djEwSDl6IiBmaWxsPSJub25lIiBzdHJva2U9IiNmZmYiIHN0cm9rZS13aWR0aD0iMiIvPjwvc3ZnPg=='

export const SOLANA_WALLET_NAME = 'Portico Embedded Wallet'

class Account implements WalletAccount {
  readonly address: string
  readonly publicKey: Uint8Array
  readonly chains: IdentifierArray = SOLANA_CHAINS
  readonly features: IdentifierArray = FEATURES
  constructor(readonly wallet: EmbeddedWallet) {
    this.address = wallet.address
    this.publicKey = base58.decode(wallet.address)
  }
}

export interface SignMessageInput {
  account: WalletAccount
  message: Uint8Array
}
export interface SignTransactionInput {
  account: WalletAccount
  transaction: Uint8Array
  chain?: string
}

export function createSolanaStandardWallet(api: EmbeddedWalletApi, approvals: () => ApprovalsLike | undefined = () => undefined): Wallet {
  const listeners = new Set<(props: { accounts?: readonly WalletAccount[] }) => void>()
  let connected = false
  let alive = true
  const accounts = (): Account[] => (connected && alive ? api.solanaWallets().map((w) => new Account(w)) : [])
  const signerFor = (account: WalletAccount) => {
    const w = api.solanaWallets().find((x) => x.address === account.address)
    if (!w) throw new Error('Embedded wallet not found')
    return { w, signer: api.signer(w.address) }
  }
  const unsubscribe = api.state.subscribe(() => {
    if (connected) for (const l of listeners) l({ accounts: accounts() })
  })
  const wallet: Wallet & { destroy(): void } = {
    version: '1.0.0',
    name: SOLANA_WALLET_NAME,
    icon: ICON,
    chains: SOLANA_CHAINS,
    get accounts() {
      return accounts()
    },
    features: {
      'standard:connect': {
        version: '1.0.0',
        connect: async () => {
          connected = true
          return { accounts: accounts() }
        },
      },
      'standard:disconnect': {
        version: '1.0.0',
        disconnect: async () => {
          connected = false
          for (const l of listeners) l({ accounts: [] })
        },
      },
      'standard:events': {
        version: '1.0.0',
        on: (_event: 'change', listener: (props: { accounts?: readonly WalletAccount[] }) => void) => {
          listeners.add(listener)
          return () => listeners.delete(listener)
        },
      },
      'solana:signMessage': {
        version: '1.0.0',
        signMessage: async (...inputs: SignMessageInput[]) => {
          const out = []
          for (const input of inputs) {
            const { w, signer } = signerFor(input.account)
            const a = approvals()
            const signature = a
              ? ((await a.handle({ wallet: w, method: 'solana_signMessage', params: { message: input.message }, chainId: 0 }, signer)) as Uint8Array)
              : await signer.solanaSignMessage(input.message)
            out.push({ signedMessage: input.message, signature, signatureType: 'ed25519' as const })
          }
          return out
        },
      },
      'solana:signTransaction': {
        version: '1.0.0',
        supportedTransactionVersions: ['legacy', 0],
        signTransaction: async (...inputs: SignTransactionInput[]) => {
          const out = []
          for (const input of inputs) {
            const { w, signer } = signerFor(input.account)
            const a = approvals()
            const signedTransaction = a
              ? ((await a.handle({ wallet: w, method: 'solana_signTransaction', params: { transaction: input.transaction, chain: input.chain }, chainId: 0 }, signer)) as Uint8Array)
              : await signer.solanaSignTransaction(input.transaction)
            out.push({ signedTransaction })
          }
          return out
        },
      },
    },
    destroy() {
      alive = false
      unsubscribe()
      for (const l of listeners) l({ accounts: [] })
    },
  }
  return wallet
}

/** Registers the wallet with the page's wallet-standard registry; `unregister()` removes it. */
export function registerSolanaWallet(api: EmbeddedWalletApi, approvals?: () => ApprovalsLike | undefined): { wallet: Wallet; unregister(): void } {
  const wallet = createSolanaStandardWallet(api, approvals)
  // wallet-standard 1.0 has no unregister: the wallet stays listed and reports no accounts.
  registerWallet(wallet)
  return {
    wallet,
    unregister: () => (wallet as Wallet & { destroy(): void }).destroy(),
  }
}
