/**
 * SIWE's errors. The wallet errors (codes, mapping, views) are the wallet base's
 * (`portico/plugins/wallet`, declared once for every wallet plugin); SIWE adds only the
 * EIP-1193 provider errors the product itself raises (spec part 1 section 8).
 */

/** A provider error the product raises: 4200 (unsupported method) or 4900 (disconnected). */
export function providerError(code: 4200 | 4900, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code })
}
