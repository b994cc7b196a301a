/**
 * The transfer data of an `account_transfer_required` error, the screen ids and the label
 * lookup. No method names here: the label and the call come from the method descriptor that
 * answers the `link_method` (`kernel.methods.forLinkMethod`).
 */
import type { MethodDescriptor, WireAccountTransferData } from 'portico'

/** The screens this plugin registers (ids prefixed with the plugin id). */
export const ACCOUNT_SCREENS = { linkConflict: 'account-link-conflict', checkAssets: 'account-check-assets' } as const
/** The copy confirmation on the transfer screen lasts 2 s (part 1 section 9). */
export const TRANSFER_COPY_RESET_MS = 2000

/** Read the transfer data of an `account_transfer_required` error (or null when it has none). */
export function transferData(data: unknown): WireAccountTransferData | null {
  const d = data as Partial<WireAccountTransferData> | null | undefined
  if (!d || typeof d.nonce !== 'string' || !d.nonce || typeof d.link_method !== 'string') return null
  return {
    nonce: d.nonce,
    account: String(d.account ?? d.display_name ?? ''),
    account_type: String(d.account_type ?? ''),
    display_name: String(d.display_name ?? d.account ?? ''),
    link_method: d.link_method,
    embedded_wallet_address: typeof d.embedded_wallet_address === 'string' && d.embedded_wallet_address ? d.embedded_wallet_address : null,
  }
}

/** The heading label of a link method: its descriptor's `transferLabel`, else the fallback ('Account'). */
export function transferLabel(method: Pick<MethodDescriptor, 'transferLabel'> | undefined, fallback: string): string {
  return method?.transferLabel || fallback
}
