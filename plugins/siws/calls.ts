/** The SIWS calls (spec part 1 section 7, "Wallet signature"), one small function each. */
import type { Api, WireAuthResponse, WireNonceResponse } from 'portico'

export interface SiwsSignature {
  message: string
  /** Base64 of the 64-byte ed25519 signature over the UTF-8 message. */
  signature: string
  walletClientType: string
  connectorType: string
}

/** POST /siws/init {address, token} → nonce. */
export function initSiws(api: Api, body: { address: string; token?: string }, signal?: AbortSignal) {
  return api.post<WireNonceResponse>('/siws/init', body, { signal, fromUi: true })
}

/** POST /siws/authenticate {message, signature, walletClientType, connectorType, mode}. */
export function authenticateSiws(api: Api, body: SiwsSignature & { mode: 'login-or-sign-up' | 'no-signup' }, signal?: AbortSignal) {
  return api.post<WireAuthResponse>('/siws/authenticate', body, { signal, fromUi: true })
}

/** POST /siws/link: the same without mode (and, for Solana, without chainId). */
export function linkSiws(api: Api, body: SiwsSignature, signal?: AbortSignal) {
  return api.post<WireAuthResponse>('/siws/link', body, { signal, fromUi: true })
}

/** POST /siws/unlink {address}. */
export function unlinkSiws(api: Api, body: { address: string }) {
  return api.post<WireAuthResponse>('/siws/unlink', body, { fromUi: true })
}

/** POST /siws/transfer {nonce, address}: move the wallet from the other account (account_transfer_required). */
export function transferSiws(api: Api, body: { nonce: string; address: string }) {
  return api.post<WireAuthResponse>('/siws/transfer', body, { fromUi: true })
}
