/**
 * Delegated actions' calls: POST /wallets/revoke {} (spec part 2 section 7) on the Portico API,
 * and the consent page's handshake (a visible iframe on the wallet service's origin): the host
 * pings `ready`, then sends `delegated-actions:consent` with the access token, the wallet and
 * the policy; the page answers once the user chose (Allow: the updated user; Not now:
 * `{ declined: true }`). The key never passes through this page, and the host cannot allow on
 * the user's behalf: the page acts only on a click in its own document.
 */
import { PorticoError, type Api, type WireAuthResponse } from 'portico'
import { CONSENT_ESCAPE, CONSENT_REQUEST, CONSENT_RESIZE, type ConsentPayload, type ConsentReply } from './protocol'

export function revokeWallets(api: Api): Promise<WireAuthResponse> {
  return api.post<WireAuthResponse>('/wallets/revoke', {})
}

/** The wallet frame's protocol marker (plugins/embedded-wallet/protocol.ts). */
export const FRAME_PROTOCOL = 'portico-wallet-frame/1'
export const READY_PING_MS = 100
/** Spec part 2 section 9: the wallet service must be ready within 30 s in the modal. */
export const FRAME_READY_TIMEOUT_MS = 30_000

export interface ConsentFrameTarget {
  contentWindow: Pick<Window, 'postMessage'> | null
}

let seq = 0
const newId = () => `c${Date.now().toString(36)}${(++seq).toString(36)}`

const fromPage = (event: MessageEvent, frame: ConsentFrameTarget, origin: string) =>
  event.origin === origin && !!frame.contentWindow && event.source === (frame.contentWindow as unknown)

/**
 * Runs the consent handshake with the page: resolves with its reply once the user chose;
 * rejects with the page's `{ type, message }` as a PorticoError (code: the frame error type).
 */
export function requestConsent(
  frame: ConsentFrameTarget,
  origin: string,
  payload: () => Promise<ConsentPayload>,
  opts: { window?: Window; signal?: AbortSignal; readyTimeoutMs?: number } = {},
): Promise<ConsentReply> {
  const win = opts.window ?? window
  return new Promise<ConsentReply>((resolve, reject) => {
    const readyId = newId()
    const consentId = newId()
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
      if (!fromPage(event, frame, origin)) return
      const m = event.data as { protocol?: string; id?: string; data?: unknown; error?: { type: string; message: string } } | null
      if (!m || m.protocol !== FRAME_PROTOCOL) return
      if (m.id === readyId) {
        if (!ping) return
        clearInterval(ping)
        ping = undefined
        clearTimeout(timer)
        payload().then((p) => post(consentId, CONSENT_REQUEST, p), fail)
      } else if (m.id === consentId) {
        stop()
        if (m.error) {
          const code = m.error.type === 'missing_or_invalid_mfa' ? 'MISSING_MFA_CREDENTIALS' : m.error.type === 'invalid_request_arguments' ? 'invalid_data' : 'UNKNOWN_EMBEDDED_WALLET_ERROR'
          reject(new PorticoError(code, m.error.message, { kind: 'client_error', data: { provider: 'delegated-actions', frameErrorType: m.error.type } }))
        } else resolve(m.data as ConsentReply)
      }
    }
    win.addEventListener('message', onMessage)
    opts.signal?.addEventListener('abort', () => fail(new PorticoError('request_aborted', 'The request was aborted.')))
    timer = setTimeout(
      () => fail(new PorticoError('UNKNOWN_EMBEDDED_WALLET_ERROR', 'Failed to connect to wallet proxy', { kind: 'client_error', data: { provider: 'delegated-actions' } })),
      opts.readyTimeoutMs ?? FRAME_READY_TIMEOUT_MS,
    )
    const send = () => post(readyId, 'ready', {})
    ping = setInterval(send, READY_PING_MS)
    send()
  })
}

/**
 * The page's own notices: Escape pressed inside it, and its content height (only from that
 * frame's window and origin). Returns the unsubscribe function.
 */
export function onConsentPage(
  frame: ConsentFrameTarget,
  origin: string,
  on: { escape(): void; resize(height: number): void },
  win: Pick<Window, 'addEventListener' | 'removeEventListener'> = window,
): () => void {
  const onMessage = (event: MessageEvent) => {
    if (!fromPage(event, frame, origin)) return
    const m = event.data as { protocol?: string; type?: string; height?: unknown } | null
    if (!m || m.protocol !== FRAME_PROTOCOL) return
    if (m.type === CONSENT_ESCAPE) on.escape()
    else if (m.type === CONSENT_RESIZE && typeof m.height === 'number' && Number.isFinite(m.height)) on.resize(m.height)
  }
  win.addEventListener('message', onMessage as EventListener)
  return () => win.removeEventListener('message', onMessage as EventListener)
}
