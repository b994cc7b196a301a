/**
 * The consent page's messages (spec part 2 section 7: "delegated-actions consent"; issue 26:
 * consent inside the wallet service's origin). 'Enable offline access' embeds the consent page
 * (`/apps/{appId}/embedded-wallets/delegate`, on the wallet service's origin, like the export
 * page) in a visible iframe. The host pings `ready`, then sends ONE `delegated-actions:consent`
 * with the access token, the wallet and the proposed policy. The page shows the app's name
 * (from the server's settings), the wallet and the policy in plain words; only a real click on
 * its Allow button (a trusted event in that page) seals the wallet's key with the policy to the
 * server. The page answers with the updated user (public data only), or `{ declined: true }`.
 * The hidden wallet frame refuses `delegated-actions:consent`: no message alone delegates.
 */
import type { WireUser } from 'portico'
import type { DelegationPolicy } from './policy'

export const CONSENT_REQUEST = 'delegated-actions:consent'
/** Page → host: Escape pressed inside the page (`{ protocol, type }`, nothing else). */
export const CONSENT_ESCAPE = 'delegated-actions:consent:escape'
/** Page → host: the page's content height in CSS pixels (`{ protocol, type, height }`). */
export const CONSENT_RESIZE = 'delegated-actions:consent:resize'

export interface ConsentPayload {
  accessToken: string
  /** The HD root (its index-0 address) and how it is verified. */
  entropyId: string
  entropyIdVerifier: 'ethereum-address-verifier' | 'solana-address-verifier'
  address: string
  chainType: 'ethereum' | 'solana'
  walletIndex: number
  /** The policy the host proposes (normalised; the page normalises it again and shows it). */
  policy: DelegationPolicy
}

export type ConsentReply = { user: WireUser } | { declined: true }
