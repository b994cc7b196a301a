/**
 * The authorization step in a popup window. `authorizeInPopup()` must be called from a click
 * handler: it opens the window synchronously (browsers block pop-ups opened later), then
 * points it at Acme ID's /authorize with `state` and the S256 `code_challenge`.
 *
 * The answer comes back by `postMessage` (never in a URL). A message counts only when
 * it comes from our popup window (`event.source`), and then:
 * - from another origin than Acme ID's: 'Origins between parent and child windows do not match.'
 * - with another state: 'Unexpected auth flow. This may be a phishing attempt.'
 * - `error: 'access_denied'`, or the window closed (checked every 300 ms): 'User rejected request'
 * - nothing within 2 minutes: 'Authorization request timed out after 2 minutes.'
 */
import { challengeOf, createStateCode, createVerifier, openPopup, watchPopup, type PopupHost } from 'portico/kits/browser'
import { acmeIdError } from './errors'
import { ACME_ID_TEXTS } from './strings'

/** The message type Acme ID's result page posts. */
export const RESPONSE_TYPE = 'acme-id:authorization_response'
export const AUTHORIZE_TIMEOUT_MS = 120_000

export type { PopupHost, PopupWindow } from 'portico/kits/browser'

export interface AuthorizeOptions {
  /** Acme ID's origin, e.g. 'http://127.0.0.1:8791'. */
  issuer: string
  clientId: string
  host?: PopupHost
  timeoutMs?: number
  pollMs?: number
  /** The texts of the errors it raises (the plugin passes `ctx.texts(ACME_ID_TEXTS)`, with the app's overrides). */
  texts?: typeof ACME_ID_TEXTS
}

/** What the token exchange needs. */
export interface AuthorizationGrant {
  code: string
  verifier: string
  redirectUri: string
}

export interface Authorization {
  /** Resolves with the code, or rejects with a PorticoError (see above). */
  readonly result: Promise<AuthorizationGrant>
  /** Close the popup and reject with 'User rejected request' (no-op once settled). */
  cancel(): void
  /** Claim the result once (a screen that remounts must not run the same grant twice). */
  claim(): boolean
  readonly claimed: boolean
}

/** PKCE and the popup host are `portico/kits/browser`'s; this file says only what is Acme ID's. */
export function authorizeInPopup(options: AuthorizeOptions): Authorization {
  const T = options.texts ?? ACME_ID_TEXTS
  const host = options.host ?? (window as unknown as PopupHost)
  const idpOrigin = new URL(options.issuer).origin
  const redirectUri = host.location.origin
  const verifier = createVerifier()
  const state = createStateCode()
  let claimed = false
  const claimable = (result: Promise<AuthorizationGrant>, cancel: () => void): Authorization => ({
    result,
    cancel,
    claim: () => (claimed ? false : (claimed = true)),
    get claimed() {
      return claimed
    },
  })

  // Synchronously, inside the click: an empty window we point at Acme ID once the challenge is ready.
  const popup = openPopup(host, 'acme-id', 'popup,width=440,height=640')
  if (!popup) {
    const blocked = Promise.reject(acmeIdError('acme_id_popup_blocked', T.popupBlocked))
    blocked.catch(() => {}) // handled by whoever awaits it; never an unhandled rejection
    return claimable(blocked, () => {})
  }

  let settled = false
  const watch = watchPopup<AuthorizationGrant>(host, popup, {
    origin: idpOrigin,
    timeoutMs: options.timeoutMs ?? AUTHORIZE_TIMEOUT_MS,
    pollMs: options.pollMs,
    originMismatch: () => acmeIdError('oauth_unexpected', T.originMismatch),
    rejected: () => acmeIdError('oauth_user_denied', T.userRejected),
    timedOut: () => acmeIdError('client_request_timeout', T.timedOut),
    accept(raw) {
      const data = raw as { type?: unknown; state?: unknown; code?: unknown; error?: unknown } | null
      if (!data || data.type !== RESPONSE_TYPE) return undefined
      if (data.state !== state) return { error: acmeIdError('oauth_unexpected', T.unexpectedFlow) }
      if (data.error === 'access_denied') return { error: acmeIdError('oauth_user_denied', T.userRejected) }
      if (typeof data.code !== 'string' || !data.code) {
        return { error: acmeIdError('oauth_unexpected', T.unexpectedFlow, undefined, { error: String(data.error ?? 'no code') }) }
      }
      return { value: { code: data.code, verifier, redirectUri } }
    },
  })
  const result = watch.result.finally(() => (settled = true))
  result.catch(() => {})

  challengeOf(verifier).then(
    (challenge) => {
      if (settled) return
      const url = new URL('/authorize', idpOrigin)
      url.search = new URLSearchParams({
        response_type: 'code',
        response_mode: 'web_message',
        client_id: options.clientId,
        redirect_uri: redirectUri,
        state,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }).toString()
      popup.location.href = url.href
    },
    (e) => watch.fail(acmeIdError('oauth_unexpected', T.unexpectedFlow, e)),
  )
  return claimable(result, watch.cancel)
}
