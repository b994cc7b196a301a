/**
 * Phantom signs in with the SIWS calls (spec part 1 section 7), with `connectorType: 'phantom'`.
 */
import type { Api, WireAuthResponse, WireNonceResponse } from 'portico'

export interface PhantomSignature {
  message: string
  /** Base64 of the 64-byte ed25519 signature. */
  signature: string
  walletClientType: string
  connectorType: 'phantom'
}

/** POST /siws/init {address} → nonce. */
export function initSiws(api: Api, body: { address: string }, signal?: AbortSignal) {
  return api.post<WireNonceResponse>('/siws/init', body, { signal, fromUi: true })
}

/** POST /siws/authenticate {message, signature, walletClientType, connectorType, mode}. */
export function authenticateSiws(api: Api, body: PhantomSignature & { mode: 'login-or-sign-up' | 'no-signup' }, signal?: AbortSignal) {
  return api.post<WireAuthResponse>('/siws/authenticate', body, { signal, fromUi: true })
}

/** POST /siws/link (the same without mode). */
export function linkSiws(api: Api, body: PhantomSignature, signal?: AbortSignal) {
  return api.post<WireAuthResponse>('/siws/link', body, { signal, fromUi: true })
}
