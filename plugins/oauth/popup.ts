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
/** The popup's window name and features: opened empty inside the click, pointed at the provider later. */
export const popupName = (id: string) => `portico-oauth-${id}`
export const POPUP_FEATURES = 'popup,width=480,height=680'

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

export interface WatchPopupOptions<T> {
  /** The origin the popup's message must come from. */
  origin: string
  /** A message from our popup: the value it carries, an error to fail with, or undefined to ignore it. */
  accept(data: unknown): { value: T } | { error: unknown } | undefined
  originMismatch(): unknown
  rejected(): unknown
  timedOut(): unknown
  timeoutMs?: number
  pollMs?: number
  /** Polls a closed window is given before it counts as rejected (a message posted just before closing). Default 0. */
  closeGrace?: number
}

/**
 * Watch a popup until it answers: messages count only from that window (`event.source`) and
 * the expected origin; a closed window is the user rejecting; a time-out. Shared by the OAuth
 * popup and cross-app's transact popup. `cancel()` ends it as rejected.
 */
export function watchPopup<T>(
  host: Pick<OAuthHost, 'addEventListener' | 'removeEventListener'>,
  popup: OAuthPopup,
  o: WatchPopupOptions<T>,
): { result: Promise<T>; cancel(): void; fail(error: unknown): void } {
  let fail: (error: unknown) => void = () => {}
  const result = new Promise<T>((resolve, reject) => {
    let settled = false
    let closedPolls = 0
    const finish = (error: unknown, value?: { value: T }) => {
      if (settled) return
      settled = true
      host.removeEventListener('message', onMessage)
      clearInterval(poll)
      clearTimeout(timer)
      if (!popup.closed) popup.close()
      if (value) resolve(value.value)
      else reject(error)
    }
    const onMessage = (event: MessageEvent) => {
      if (event.source !== (popup as unknown)) return // another window or frame: not ours to judge
      if (event.origin !== o.origin) return finish(o.originMismatch())
      const answer = o.accept(event.data)
      if (!answer) return
      if ('error' in answer) finish(answer.error)
      else finish(null, answer)
    }
    host.addEventListener('message', onMessage)
    const poll = setInterval(() => {
      if (!popup.closed) return
      if (closedPolls++ >= (o.closeGrace ?? 0)) finish(o.rejected())
    }, o.pollMs ?? POPUP_POLL_MS)
    const timer = setTimeout(() => finish(o.timedOut()), o.timeoutMs ?? POPUP_TIMEOUT_MS)
    fail = (error) => finish(error)
  })
  result.catch(() => {})
  return { result, cancel: () => fail(o.rejected()), fail: (error) => fail(error) }
}

export function waitForPopup(host: OAuthHost, popup: OAuthPopup, provider: string, o: PopupWaitOptions): PopupWait {
  const { result, cancel } = watchPopup<PopupReturn>(host, popup, {
    ...o,
    origin: host.location.origin,
    // One poll of grace lets a message posted just before closing arrive.
    closeGrace: 1,
    accept(raw) {
      const data = raw as Partial<PopupReturn> | null
      if (!data || data.type !== POPUP_MESSAGE || data.provider !== provider) return undefined
      return {
        value: {
          type: POPUP_MESSAGE,
          provider,
          code: typeof data.code === 'string' ? data.code : null,
          state: typeof data.state === 'string' ? data.state : null,
          error: typeof data.error === 'string' ? data.error : null,
        },
      }
    },
  })
  return { result, cancel }
}
