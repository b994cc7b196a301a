/**
 * The SIWE calls a WalletConnect login makes (spec part 1 section 7, "Wallet signature"):
 * the same `/siwe/*` routes as the injected wallets, with `connectorType: 'wallet_connect_v2'`.
 */
import type { Api, WireAuthResponse, WireNonceResponse } from 'portico'

export interface WalletConnectSignature {
  message: string
  signature: string
  /** CAIP-2, e.g. 'eip155:1'. */
  chainId: string
  walletClientType: string
  connectorType: 'wallet_connect_v2'
}

/** POST /siwe/init {address} → nonce. */
export function initSiwe(api: Api, body: { address: string; token?: string }, signal?: AbortSignal) {
  return api.post<WireNonceResponse>('/siwe/init', body, { signal, fromUi: true })
}

/** POST /siwe/authenticate {message, signature, chainId, walletClientType, connectorType, mode}. */
export function authenticateSiwe(api: Api, body: WalletConnectSignature & { mode: 'login-or-sign-up' | 'no-signup' }, signal?: AbortSignal) {
  return api.post<WireAuthResponse>('/siwe/authenticate', body, { signal, fromUi: true })
}

/** POST /siwe/link: the same without mode; needs a session. */
export function linkSiwe(api: Api, body: WalletConnectSignature, signal?: AbortSignal) {
  return api.post<WireAuthResponse>('/siwe/link', body, { signal, fromUi: true })
}
