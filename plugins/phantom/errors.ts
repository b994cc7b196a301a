/**
 * Phantom deep-link errors. Phantom answers a refused request with `errorCode` and
 * `errorMessage` on the return address (4001 when the user said no); a return that cannot be
 * decrypted or has no pending request is refused too. Both show 'Could not connect with
 * wallet' (the wallet base's login-failed screen) with 'Try again'.
 */
import { PorticoError } from 'portico'
import { WALLET_CONNECT_CODES, type WalletTexts } from 'portico/kits/wallet'

/** `S`: the wallet base's texts (`(await loadWalletKit()).WALLET_TEXTS`). */
export function phantomReturnError(code: string | null, message: string | null, S: WalletTexts): PorticoError {
  const n = Number(code)
  if (n === 4001) {
    return new PorticoError(WALLET_CONNECT_CODES.rejected, S.rejected, { kind: 'wallet_error', retryable: true, data: { walletCode: n } })
  }
  return new PorticoError(WALLET_CONNECT_CODES.failed, message || S.unknownConnectionError, {
    kind: 'provider_error',
    retryable: true,
    data: Number.isFinite(n) ? { walletCode: n } : undefined,
  })
}

export function phantomBadReturn(S: WalletTexts): PorticoError {
  return new PorticoError(WALLET_CONNECT_CODES.failed, S.unknownConnectionError, { kind: 'connector_error', retryable: true })
}
