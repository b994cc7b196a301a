/** The shape one signature flow (SIWE, SIWS) is configured by: routes.ts serves it, siwe.ts and siws.ts fill it in. */
import type { AppSettings } from '../../config'
import type { AccountInput } from '../../core/identity'
import type { C } from '../../core/context'

export interface WalletFlow {
  base: string
  kind: 'siwe' | 'siws'
  /** Normalised address (nonce subject) or 422. */
  normaliseAddress(address: string): string
  /** Verifies message + signature (domain, nonce, times, signature); returns the account. */
  verify(c: C, app: AppSettings, b: Record<string, unknown>): Promise<AccountInput>
  /** Unique identifier of an address. */
  identifier(address: string): string
}
