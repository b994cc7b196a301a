/**
 * Start an Acme ID login: open the popup (now, inside the click) and keep it only as long as
 * its screen is in the modal's stack. Closing the modal, or going back past the screen,
 * closes the popup.
 */
import type { Navigator } from 'portico'
import { authorizeInPopup, type Authorization, type PopupHost } from './popup'

export const SCREEN = 'acme-id-login'

export interface AcmeIdSettings {
  issuer: string
  clientId: string
  fetch?: typeof fetch
  /** The browser window (tests pass a fake). */
  host?: PopupHost
  timeoutMs?: number
  pollMs?: number
}

export function beginAuthorization(nav: Navigator, settings: AcmeIdSettings): Authorization {
  const authorization = authorizeInPopup(settings)
  // Subscribe after the caller opened (or replaced) the screen with this authorization.
  queueMicrotask(() => {
    const off = nav.subscribe((s) => {
      if (!s.open || !s.stack.some((e) => e.params.authorization === authorization)) authorization.cancel()
    })
    authorization.result.then(off, off)
  })
  return authorization
}
