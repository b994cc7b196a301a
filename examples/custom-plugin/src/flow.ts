/**
 * Start an Acme ID login: open the popup (now, inside the click) and keep it only as long as
 * its screen is in the modal's stack. Closing the modal, or going back past the screen,
 * closes the popup. The plugin's state (what the waiting screen shows) lives in its kernel
 * store: `usePluginState('acme-id')`.
 */
import type { Navigator, Store } from 'portico'
import { authorizeInPopup, type Authorization, type PopupHost } from './popup'
import type { ACME_ID_TEXTS } from './strings'

export const SCREEN = 'acme-id-login'

export interface AcmeIdSettings {
  issuer: string
  clientId: string
  /** fetch for the call to Acme ID (default: the host's `fetch` option, `ctx.fetch`). */
  fetch?: typeof fetch
  /** The browser window (tests pass a fake). */
  host?: PopupHost
  timeoutMs?: number
  pollMs?: number
}

export type AcmeIdStatus = 'idle' | 'waiting' | 'verifying' | 'success'
export interface AcmeIdState {
  status: AcmeIdStatus
}

/** What `kernel.plugin('acme-id')` / `usePlugin('acme-id')` return. */
export interface AcmeIdApi {
  readonly settings: AcmeIdSettings
  readonly state: Store<AcmeIdState>
  /** Open the popup (call it inside a click) and tie it to the screen's life. */
  authorize(): Authorization
  /** fetch for Acme ID's /token. */
  readonly fetch: typeof fetch
}

export function beginAuthorization(nav: Navigator, settings: AcmeIdSettings, texts?: typeof ACME_ID_TEXTS): Authorization {
  const authorization = authorizeInPopup({ ...settings, texts })
  // Subscribe after the caller opened (or replaced) the screen with this authorization.
  queueMicrotask(() => {
    const off = nav.subscribe((s) => {
      if (!s.open || !s.stack.some((e) => e.params.authorization === authorization)) authorization.cancel()
    })
    authorization.result.then(off, off)
  })
  return authorization
}
