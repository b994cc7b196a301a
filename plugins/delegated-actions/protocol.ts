/**
 * The wallet frame message of delegated actions (spec part 2 section 7: "delegated-actions
 * consent"). After the user accepts 'Enable offline access', the host asks the wallet frame to
 * hand the server that one wallet's key, sealed to the server; the frame answers with the
 * updated user (public data only).
 */
import type { WireUser } from 'portico'

export const CONSENT_REQUEST = 'delegated-actions:consent'

export interface ConsentPayload {
  accessToken: string
  /** The HD root (its index-0 address) and how it is verified. */
  entropyId: string
  entropyIdVerifier: 'ethereum-address-verifier' | 'solana-address-verifier'
  address: string
  chainType: 'ethereum' | 'solana'
  walletIndex: number
}

export interface ConsentReply {
  user: WireUser
}
