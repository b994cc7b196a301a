/**
 * The export page, seen from the host: a visible iframe on the wallet service's origin. The
 * host pings `ready`, then sends `wallets:export` with the access token by postMessage (never
 * in the URL). Replies count only from that origin AND that iframe's window. The page answers
 * `{ exported: true }` once it shows the key; the key itself never leaves the page.
 */
import { PorticoError } from 'portico'
import { EXPORT_ESCAPE, EXPORT_REQUEST, type ExportReply, type ExportRequestPayload } from './protocol'

/** The wallet frame's protocol marker (plugins/embedded-wallet/protocol.ts). */
export const FRAME_PROTOCOL = 'portico-wallet-frame/1'
export const READY_PING_MS = 100
/** Spec part 2 section 9: the wallet service must be ready within 30 s in the modal. */
export const READY_TIMEOUT_MS = 30_000

export interface ExportFrameTarget {
  contentWindow: Pick<Window, 'postMessage'> | null
}

let seq = 0
const newId = () => `x${Date.now().toString(36)}${(++seq).toString(36)}`

/**
 * Runs the export handshake with the iframe: resolves when the page shows the key, rejects
 * with the page's `{ type, message }` as a PorticoError (code: the frame error type).
 */
export function requestExport(
  frame: ExportFrameTarget,
  origin: string,
  payload: () => Promise<ExportRequestPayload>,
  opts: { window?: Window; signal?: AbortSignal; readyTimeoutMs?: number } = {},
): Promise<ExportReply> {
  const win = opts.window ?? window
  return new Promise<ExportReply>((resolve, reject) => {
    const readyId = newId()
    const exportId = newId()
    let ping: ReturnType<typeof setInterval> | undefined
    let timer: ReturnType<typeof setTimeout> | undefined
    const stop = () => {
      clearInterval(ping)
      clearTimeout(timer)
      win.removeEventListener('message', onMessage)
    }
    const post = (id: string, type: string, p: unknown) => frame.contentWindow?.postMessage({ protocol: FRAME_PROTOCOL, id, type, payload: p }, origin)
    const fail = (e: unknown) => {
      stop()
      reject(e)
    }
    function onMessage(event: MessageEvent) {
      if (event.origin !== origin || !frame.contentWindow || event.source !== (frame.contentWindow as unknown)) return
      const m = event.data as { protocol?: string; id?: string; data?: unknown; error?: { type: string; message: string } } | null
      if (!m || m.protocol !== FRAME_PROTOCOL) return
      if (m.id === readyId) {
        if (!ping) return
        clearInterval(ping)
        ping = undefined
        clearTimeout(timer)
        payload().then((p) => post(exportId, EXPORT_REQUEST, p), fail)
      } else if (m.id === exportId) {
        stop()
        if (m.error) reject(new PorticoError(m.error.type === 'missing_or_invalid_mfa' ? 'MISSING_MFA_CREDENTIALS' : 'UNKNOWN_EMBEDDED_WALLET_ERROR', m.error.message, { kind: 'client_error', data: { provider: 'wallet-export', frameErrorType: m.error.type } }))
        else resolve(m.data as ExportReply)
      }
    }
    win.addEventListener('message', onMessage)
    opts.signal?.addEventListener('abort', () => fail(new PorticoError('request_aborted', 'The request was aborted.')))
    timer = setTimeout(() => fail(new PorticoError('UNKNOWN_EMBEDDED_WALLET_ERROR', 'Failed to connect to wallet proxy', { kind: 'client_error', data: { provider: 'wallet-export' } })), opts.readyTimeoutMs ?? READY_TIMEOUT_MS)
    const send = () => post(readyId, 'ready', {})
    ping = setInterval(send, READY_PING_MS)
    send()
  })
}

/**
 * Calls `onEscape` when the export page reports Escape pressed inside it (only from that frame's
 * window and origin). Returns the unsubscribe function.
 */
export function onExportFrameEscape(frame: ExportFrameTarget, origin: string, onEscape: () => void, win: Pick<Window, 'addEventListener' | 'removeEventListener'> = window): () => void {
  const onMessage = (event: MessageEvent) => {
    if (event.origin !== origin || !frame.contentWindow || event.source !== (frame.contentWindow as unknown)) return
    const m = event.data as { protocol?: string; type?: string } | null
    if (m && m.protocol === FRAME_PROTOCOL && m.type === EXPORT_ESCAPE) onEscape()
  }
  win.addEventListener('message', onMessage as EventListener)
  return () => win.removeEventListener('message', onMessage as EventListener)
}
