/**
 * The export frame's messages and address (spec part 2 section 7: "Export frame:
 * /apps/{appId}/embedded-wallets/export with query client_id, primaryAddress, address,
 * walletIndex, width, caid, phrase_export and theme colours. The access token is passed
 * separately"). Shared by the host plugin and the export page (examples/server/frame/export/).
 *
 * The export page speaks the wallet frame's protocol: the host pings `ready`, then sends
 * `wallets:export` with the access token (never in the URL). The page renders the key or
 * phrase itself and answers `{ exported: true }`: no key material ever crosses to the host.
 */

/** `wallets:export` (export page only): the access token; the wallet comes from the page's URL. */
export interface ExportRequestPayload {
  accessToken: string
  /** The root's verifier when it differs from the primary address's format. */
  entropyIdVerifier?: 'ethereum-address-verifier' | 'solana-address-verifier'
}

/** The request type and its reply: `{ exported: true }`, never the key. */
export const EXPORT_REQUEST = 'wallets:export'
export interface ExportReply {
  exported: true
}

export interface ExportQuery {
  clientId?: string | null
  caid?: string | null
  /** The HD root's primary address (its entropy id). */
  primaryAddress: string
  /** The wallet to export. */
  address: string
  walletIndex: number
  /** Frame width in CSS pixels. */
  width?: number
  /** Export the root's recovery phrase instead of the wallet's private key. */
  phraseExport?: boolean
  theme?: 'light' | 'dark'
  /** Theme colours (#rgb or #rrggbb). */
  accentColor?: string | null
  backgroundColor?: string | null
  foregroundColor?: string | null
}

/** The export page's path on the wallet-service origin. */
export function exportPath(appId: string, q: ExportQuery): string {
  const p = new URLSearchParams()
  if (q.clientId) p.set('client_id', q.clientId)
  p.set('primaryAddress', q.primaryAddress)
  p.set('address', q.address)
  p.set('walletIndex', String(q.walletIndex))
  if (q.width) p.set('width', String(Math.round(q.width)))
  if (q.caid) p.set('caid', q.caid)
  p.set('phrase_export', q.phraseExport ? 'true' : 'false')
  if (q.theme) p.set('theme', q.theme)
  if (q.accentColor) p.set('accent_color', q.accentColor)
  if (q.backgroundColor) p.set('background_color', q.backgroundColor)
  if (q.foregroundColor) p.set('foreground_color', q.foregroundColor)
  return `/apps/${encodeURIComponent(appId)}/embedded-wallets/export?${p}`
}

/** Spec part 2 section 9: the key export QR code is 275 px. */
export const EXPORT_QR_SIZE = 275
/** Copied indicator (spec section 4). */
export const COPIED_MS = 1500

/**
 * Sent by the export page to the host when the user presses Escape inside it (a key event in the
 * frame's document never reaches the host's dialog): `{ protocol, type: EXPORT_ESCAPE }`, to the
 * host origin that asked for the export only; it carries nothing else.
 */
export const EXPORT_ESCAPE = 'wallets:export:escape'
