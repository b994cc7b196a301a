/**
 * The app side of the wallet-standard registry, without dependencies: listen for
 * `wallet-standard:register-wallet` (a wallet hands us a callback, we call it with our
 * `register`), and announce ourselves with `wallet-standard:app-ready` so wallets that
 * loaded before us register too. The protocol of @wallet-standard/app, in a few lines.
 */

/** A wallet-standard account (subset used here). */
export interface StandardWalletAccount {
  readonly address: string
  readonly publicKey: Uint8Array
  readonly chains: readonly string[]
  readonly features: readonly string[]
  readonly label?: string
  readonly icon?: string
}

/** A wallet-standard wallet (subset used here). */
export interface StandardWallet {
  readonly version: '1.0.0'
  readonly name: string
  /** Data URI of the icon. */
  readonly icon: string
  readonly chains: readonly string[]
  readonly features: Readonly<Record<string, unknown>>
  readonly accounts: readonly StandardWalletAccount[]
}

export interface StandardConnectFeature {
  version: string
  connect(input?: { silent?: boolean }): Promise<{ accounts: readonly StandardWalletAccount[] }>
}

export interface SolanaSignMessageFeature {
  version: string
  signMessage(
    ...inputs: { account: StandardWalletAccount; message: Uint8Array }[]
  ): Promise<readonly { signedMessage: Uint8Array; signature: Uint8Array; signatureType?: 'ed25519' }[]>
}

/** `solana:signIn` (Sign In With Solana in one wallet call; the wallet builds the message). */
export interface SolanaSignInFeature {
  version: string
  signIn(...inputs: SolanaSignInInput[]): Promise<readonly { account: StandardWalletAccount; signedMessage: Uint8Array; signature: Uint8Array }[]>
}

/** `solana:signAndSendTransaction`: the wallet signs a serialized transaction and sends it to `chain`. */
export interface SolanaSignAndSendTransactionFeature {
  version: string
  signAndSendTransaction(
    ...inputs: { account: StandardWalletAccount; transaction: Uint8Array; chain: string; options?: { commitment?: string; skipPreflight?: boolean } }[]
  ): Promise<readonly { signature: Uint8Array }[]>
}

/** `solana:signTransaction`: the wallet signs a serialized transaction; the app sends it. */
export interface SolanaSignTransactionFeature {
  version: string
  signTransaction(...inputs: { account: StandardWalletAccount; transaction: Uint8Array; chain?: string }[]): Promise<readonly { signedTransaction: Uint8Array }[]>
}

export interface SolanaSignInInput {
  domain?: string
  address?: string
  statement?: string
  uri?: string
  version?: string
  chainId?: string
  nonce?: string
  issuedAt?: string
}

export interface RegistryApi {
  register(...wallets: StandardWallet[]): () => void
}

export interface WalletStandardRegistry {
  get(): readonly StandardWallet[]
  /** Called when wallets register or unregister. */
  subscribe(listener: () => void): () => void
  destroy(): void
}

type Target = Pick<Window, 'addEventListener' | 'removeEventListener' | 'dispatchEvent'>

export const REGISTER_WALLET_EVENT = 'wallet-standard:register-wallet'
export const APP_READY_EVENT = 'wallet-standard:app-ready'

export function createWalletStandardRegistry(target: Target = globalThis as unknown as Target): WalletStandardRegistry {
  const wallets = new Set<StandardWallet>()
  const listeners = new Set<() => void>()
  let live = true
  const notify = () => {
    for (const l of [...listeners]) l()
  }
  const api: RegistryApi = Object.freeze({
    register(...added: StandardWallet[]) {
      const fresh = added.filter((w) => w && typeof w === 'object' && !wallets.has(w))
      for (const w of fresh) wallets.add(w)
      if (fresh.length && live) notify()
      return () => {
        let removed = false
        for (const w of fresh) removed = wallets.delete(w) || removed
        if (removed && live) notify()
      }
    },
  })

  const onRegister = (event: Event) => {
    const callback = (event as CustomEvent).detail
    if (typeof callback !== 'function') return
    try {
      callback(api)
    } catch (e) {
      console.error('[portico] a wallet failed to register', e)
    }
  }
  target.addEventListener(REGISTER_WALLET_EVENT, onRegister)
  try {
    target.dispatchEvent(new CustomEvent(APP_READY_EVENT, { detail: api }))
  } catch (e) {
    console.error('[portico] wallet-standard app-ready failed', e)
  }

  return {
    get: () => [...wallets],
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    destroy() {
      live = false
      target.removeEventListener(REGISTER_WALLET_EVENT, onRegister)
      listeners.clear()
    },
  }
}

/**
 * The provider's own embedded Solana wallet registers through wallet-standard too (for other
 * dapps on the page); it is never an external wallet to log in or link with (spec part 1
 * section 5). Recognised by a `portico:embedded` feature or its name.
 */
export const EMBEDDED_WALLET_NAME = 'Portico Embedded Wallet'
export function isEmbeddedStandardWallet(w: StandardWallet): boolean {
  return w.name === EMBEDDED_WALLET_NAME || !!w.features?.['portico:embedded']
}

/** A wallet that can sign in with Solana: a Solana chain, standard:connect and solana:signIn or solana:signMessage (never the embedded wallet). */
export function isSolanaSignInWallet(w: StandardWallet): boolean {
  return (
    !isEmbeddedStandardWallet(w) &&
    Array.isArray(w.chains) &&
    w.chains.some((c) => typeof c === 'string' && c.startsWith('solana:')) &&
    !!w.features?.['standard:connect'] &&
    (!!w.features?.['solana:signMessage'] || !!w.features?.['solana:signIn'])
  )
}
