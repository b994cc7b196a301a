/**
 * The EIP-7702 authorisation page's messages (issue 29: "authorisations signed in the wallet
 * frame only after the user approves them on a screen that says what is delegated").
 *
 * The smart-wallet plugin in its EIP-7702 mode embeds the page
 * `/apps/{appId}/embedded-wallets/authorize` (on the wallet service's origin, like the
 * delegation consent page) in a visible iframe. The host pings `ready`, then sends ONE
 * `smart-wallet:authorize-7702` with the access token, the wallet and the authorisation it
 * proposes (chain, contract, nonce). The page shows the app's name (from the server's settings),
 * the wallet, the contract by name and what delegating means; only a real click on its Allow
 * (a trusted event in that page) unlocks the wallet and signs the authorisation there. It
 * answers with the signed authorisation (no key material), or `{ declined: true }`.
 * The page refuses a contract it does not know (a host cannot have the user delegate to a
 * drainer) and chain id 0 (valid on every chain); the hidden wallet frame refuses the request.
 */
export const AUTHORIZE_REQUEST = 'smart-wallet:authorize-7702'
/** Page → host: Escape pressed inside the page (`{ protocol, type }`). */
export const AUTHORIZE_ESCAPE = 'smart-wallet:authorize-7702:escape'
/** Page → host: the page's content height in CSS pixels (`{ protocol, type, height }`). */
export const AUTHORIZE_RESIZE = 'smart-wallet:authorize-7702:resize'

/**
 * The contracts the page lets a wallet delegate to (lower-case address → the name it shows):
 * audited account implementations at their canonical addresses, nothing a host names.
 */
export const EIP7702_IMPLEMENTATIONS: Readonly<Record<string, string>> = {
  '0xe6cae83bde06e4c305530e199d7217f42808555b': 'Simple7702Account (EntryPoint v0.8)',
}

export interface AuthorizePayload {
  accessToken: string
  /** The HD root (its index-0 address) and how it is verified. */
  entropyId: string
  entropyIdVerifier: 'ethereum-address-verifier' | 'solana-address-verifier'
  /** The embedded Ethereum wallet (index 0) that delegates. */
  address: string
  /** The chain the authorisation is valid on (never 0: that would be every chain). */
  chainId: number
  /** The implementation delegated to (one of EIP7702_IMPLEMENTATIONS). */
  contractAddress: string
  /** The wallet's next transaction nonce. */
  nonce: number
}

/** A signed EIP-7702 authorisation (viem's SignedAuthorization, numbers as JSON numbers). */
export interface WireAuthorization {
  address: string
  chainId: number
  nonce: number
  r: string
  s: string
  yParity: number
}

export type AuthorizeReply = { authorization: WireAuthorization } | { declined: true }
