/**
 * The export page, seen from the host: a visible iframe on the wallet service's origin (the
 * embedded-wallet plugin's wallet page). The host pings `ready`, then sends `wallets:export`
 * with the access token by postMessage (never in the URL). Replies count only from that origin
 * AND that iframe's window. The page answers `{ exported: true }` once it shows the key; the
 * key itself never leaves the page.
 */
import type { PageOptions, PageTarget, WalletPageKit } from 'portico/plugins/embedded-wallet'
import { EXPORT_REQUEST, type ExportReply, type ExportRequestPayload } from './protocol'

/**
 * Runs the export handshake with the iframe: resolves when the page shows the key, rejects
 * with the page's `{ type, message }` as a PorticoError (code: the frame error type).
 */
export function requestExport(
  page: Pick<WalletPageKit, 'requestPage'>,
  frame: PageTarget,
  origin: string,
  payload: () => Promise<ExportRequestPayload>,
  opts: PageOptions = {},
): Promise<ExportReply> {
  return page.requestPage<ExportReply>(frame, origin, { type: EXPORT_REQUEST, payload, provider: 'wallet-export', codes: { missing_or_invalid_mfa: 'MISSING_MFA_CREDENTIALS' } }, opts)
}
