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

/** The external wallet account a signature flow links (spec part 1 section 3, type 'wallet'). */
export function walletAccount(
  w: { chain: 'ethereum' | 'solana'; identifier: string; address: string; chainId: string | null; transferable: boolean; linkMethod: 'siwe' | 'siws' },
  b: Record<string, unknown>,
): AccountInput {
  return {
    type: 'wallet',
    identifier: w.identifier,
    data: {
      address: w.address,
      chain_type: w.chain,
      chain_id: w.chainId,
      wallet_client_type: (b.walletClientType as string) ?? null,
      connector_type: (b.connectorType as string) ?? null,
      imported: false,
      delegated: false,
      recovery_method: null,
      wallet_index: null,
    },
    transferable: w.transferable,
    linkMethod: w.linkMethod,
    displayName: w.address,
  }
}
