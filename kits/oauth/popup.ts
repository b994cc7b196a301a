/**
 * Popup mode. The window opens synchronously inside the click (browsers block later ones),
 * then goes to the provider. The provider returns (through the server's callback) to a page
 * of the app's own origin (`?portico_oauth_popup=1`); the plugin there posts the result to its
 * opener and closes. The opener accepts a message only from that window (`event.source`) and
 * from its own origin; a closed popup counts as the user rejecting; 120 s time-out; the
 * closed check runs every 300 ms (part 1 section 9): the popup host of `portico/kits/browser`.
 */
import type { PorticoError } from 'portico'
import { watchPopup, type PopupHost, type PopupWindow } from 'portico/kits/browser'

export const POPUP_MESSAGE = 'portico:oauth-return'
export const POPUP_PARAM = 'portico_oauth_popup'
/** The popup's window name and features: opened empty inside the click, pointed at the provider later. */
export const popupName = (id: string) => `portico-oauth-${id}`
export const POPUP_FEATURES = 'popup,width=480,height=680'

/** What the flow needs from the browser window (a fake in unit tests): a popup host that also redirects. */
export interface OAuthHost extends PopupHost {
  location: { origin: string; href: string; assign(url: string): void }
  navigator?: { userAgent?: string }
}

export type OAuthPopup = PopupWindow

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
  const { result, cancel } = watchPopup<PopupReturn>(host, popup, {
    ...o,
    origin: host.location.origin,
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
