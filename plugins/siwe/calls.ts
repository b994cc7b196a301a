/** The SIWE calls (spec part 1 section 7, "Wallet signature"), one small function each. */
import type { Api, WireAuthResponse, WireNonceResponse } from 'portico'

export interface SiweSignature {
  message: string
  signature: string
  /** CAIP-2, e.g. 'eip155:1'. */
  chainId: string
  walletClientType: string
  connectorType: string
}

/** POST /siwe/init {address, token} → nonce. `token` is the captcha token, when there is one. */
export function initSiwe(api: Api, body: { address: string; token?: string }, signal?: AbortSignal) {
  return api.post<WireNonceResponse>('/siwe/init', body, { signal, fromUi: true })
}

/** POST /siwe/authenticate {message, signature, chainId, walletClientType, connectorType, mode}. */
export function authenticateSiwe(
  api: Api,
  body: SiweSignature & { mode: 'login-or-sign-up' | 'no-signup' },
  signal?: AbortSignal,
) {
  return api.post<WireAuthResponse>('/siwe/authenticate', body, { signal, fromUi: true })
}

/** POST /siwe/link: the same without mode; needs a session. */
export function linkSiwe(api: Api, body: SiweSignature, signal?: AbortSignal) {
  return api.post<WireAuthResponse>('/siwe/link', body, { signal, fromUi: true })
}

/** POST /siwe/unlink {address}. */
export function unlinkSiwe(api: Api, body: { address: string }) {
  return api.post<WireAuthResponse>('/siwe/unlink', body, { fromUi: true })
}

/** POST /siwe/transfer {nonce, address}: move the wallet from the other account (account_transfer_required). */
export function transferSiwe(api: Api, body: { nonce: string; address: string }) {
  return api.post<WireAuthResponse>('/siwe/transfer', body, { fromUi: true })
}
