/**
 * Popup mode. The window opens synchronously inside the click (browsers block later ones),
 * then goes to the provider. The provider returns (through the server's callback) to a page
 * of the app's own origin (`?portico_oauth_popup=1`); the plugin there posts the result to its
 * opener and closes. The opener accepts a message only from that window (`event.source`) and
 * from its own origin; a closed popup counts as the user rejecting; 120 s time-out; the
 * closed check runs every 300 ms (part 1 section 9).
 */
import type { PorticoError } from 'portico'

export const POPUP_MESSAGE = 'portico:oauth-return'
export const POPUP_PARAM = 'portico_oauth_popup'
export const POPUP_TIMEOUT_MS = 120_000
export const POPUP_POLL_MS = 300

/** What the flow needs from the browser window (a fake in unit tests). */
export interface OAuthHost {
  open(url: string, target: string, features: string): OAuthPopup | null
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void
  location: { origin: string; href: string; assign(url: string): void }
  navigator?: { userAgent?: string }
  opener?: { postMessage(message: unknown, targetOrigin: string): void } | null
  close?(): void
}

export interface OAuthPopup {
  closed: boolean
  close(): void
  location: { href: string } | Location
}

/** What the popup page posts to its opener. */
export interface PopupReturn {
  type: typeof POPUP_MESSAGE
  provider: string
  code: string | null
  state: string | null
  error: string | null
}

export interface PopupWaitOptions {
  timeoutMs?: number
  pollMs?: number
  /** Errors, built by the flow with its texts. */
  originMismatch(): PorticoError
  rejected(): PorticoError
  timedOut(): PorticoError
}

export interface PopupWait {
  readonly result: Promise<PopupReturn>
  cancel(): void
}

export function waitForPopup(host: OAuthHost, popup: OAuthPopup, provider: string, o: PopupWaitOptions): PopupWait {
  let cancel = () => {}
  const result = new Promise<PopupReturn>((resolve, reject) => {
    let settled = false
    let closedSeen = false
    const finish = (error: unknown, value?: PopupReturn) => {
      if (settled) return
      settled = true
      host.removeEventListener('message', onMessage)
      clearInterval(poll)
      clearTimeout(timer)
      if (!popup.closed) popup.close()
      if (value) resolve(value)
      else reject(error)
    }
    const onMessage = (event: MessageEvent) => {
      if (event.source !== (popup as unknown)) return // another window or frame: not ours to judge
      if (event.origin !== host.location.origin) return finish(o.originMismatch())
      const data = event.data as Partial<PopupReturn> | null
      if (!data || data.type !== POPUP_MESSAGE || data.provider !== provider) return
      finish(null, {
        type: POPUP_MESSAGE,
        provider,
        code: typeof data.code === 'string' ? data.code : null,
        state: typeof data.state === 'string' ? data.state : null,
        error: typeof data.error === 'string' ? data.error : null,
      })
    }
    host.addEventListener('message', onMessage)
    // A closed window is the user rejecting; one poll of grace lets a message posted just before closing arrive.
    const poll = setInterval(() => {
      if (!popup.closed) return
      if (closedSeen) finish(o.rejected())
      closedSeen = true
    }, o.pollMs ?? POPUP_POLL_MS)
    const timer = setTimeout(() => finish(o.timedOut()), o.timeoutMs ?? POPUP_TIMEOUT_MS)
    cancel = () => finish(o.rejected())
  })
  result.catch(() => {})
  return { result, cancel: () => cancel() }
}
