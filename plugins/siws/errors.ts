/**
 * SIWS's errors. The wallet errors (codes, mapping, views) are the wallet base's
 * (`portico/kits/wallet`, declared once for every wallet plugin); SIWS adds only the
 * wallet-standard failure below, which the base maps like any connector error (retryable).
 */

/** A wallet-standard wallet answered `solana:signMessage` without a signature. */
export function noSignatureError(): Error {
  return new Error('The wallet returned no signature.')
}
