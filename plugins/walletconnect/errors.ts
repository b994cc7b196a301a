/**
 * WalletConnect's errors. The wallet errors (codes, texts, retry rules) are the wallet base's;
 * this plugin raises provider-style errors the base maps: closing the QR code is the user
 * rejecting (EIP-1193 4001, spec part 1 section 4), a session the wallet ended is 4900
 * (disconnected), a method the wallet did not approve is 4200 (unsupported).
 */
export interface ProviderRpcError extends Error {
  code: number
}

/** The user closed the QR code (or the deep-link list): counted as rejecting the request. */
export function qrClosedError(): ProviderRpcError {
  return Object.assign(new Error('The user closed the WalletConnect QR code.'), { code: 4001, name: 'UserRejectedRequestError' })
}

/** The wallet ended the session, or there is none (EIP-1193 4900, disconnected). */
export function disconnectedError(message = 'The WalletConnect session is not connected.'): ProviderRpcError {
  return Object.assign(new Error(message), { code: 4900 })
}

/** The wallet did not approve this method for the session (EIP-1193 4200). */
export function unsupportedMethodError(method: string): ProviderRpcError {
  return Object.assign(new Error(`The wallet does not support ${method} in this session.`), { code: 4200 })
}

/** The relay did not take the session proposal in time (unreachable, refused by the CSP). */
export function relayUnreachableError(): Error & { code: number } {
  return Object.assign(new Error('The WalletConnect relay could not be reached.'), { code: -32603 })
}

/**
 * A wallet error answered over the relay ({code, message}) as a provider error. WalletConnect
 * wallets refuse with the SDK's USER_REJECTED codes (5000-5002) or EIP-1193's 4001: both
 * become 4001, the rejection the wallet base shows ('Signature rejected: ...').
 */
export function walletRpcError(e: unknown): unknown {
  const code = (e as { code?: unknown })?.code
  if (typeof code !== 'number') return e
  const rejected = code === 4001 || (code >= 5000 && code <= 5002)
  return Object.assign(new Error(String((e as { message?: unknown }).message ?? 'Wallet error')), { code: rejected ? 4001 : code })
}
