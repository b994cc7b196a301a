/**
 * The provider app's /oauth/transact page in a popup. `openTransact()` must run inside a
 * click: it opens the window synchronously, then points it at the page with the `token`
 * (this flow's state) and `request` (appId, name, logoUrl, popup, action, code_challenge,
 * origin; base64url JSON) query parameters. The answer comes back by `postMessage`; a message
 * counts only from our popup window (`event.source`), and then:
 * - from another origin than the page's: 'Origins between parent and child windows do not match.'
 * - with another state: 'Unexpected auth flow. This may be a phishing attempt.'
 * - `error: 'rejected'`, or the window closed (checked every 300 ms, one poll of grace for an
 *   answer posted just before closing): 'User rejected request'
 * - nothing within 2 minutes: 'Authorization request timed out after 2 minutes.'
 */
import { base64url, challengeOf, createStateCode, createVerifier, openPopup, watchPopup, type PopupHost, type PopupWindow } from 'portico/kits/browser'
import { crossAppError } from './errors'
import { CROSS_APP_TEXTS } from './strings'

export const CROSS_APP_RESPONSE = 'portico:cross-app-response'
export const TRANSACT_TIMEOUT_MS = 120_000

export type { PopupHost, PopupWindow } from 'portico/kits/browser'

/** What the provider page receives in `request`. */
export interface CrossAppRequest {
  appId: string
  name: string
  logoUrl: string | null
  popup: true
  action: 'login' | 'link' | 'transact'
  code_challenge: string
  origin: string
  provider_app_id: string
}

export interface TransactOptions {
  transactUrl: string
  providerAppId: string
  request: Pick<CrossAppRequest, 'appId' | 'name' | 'logoUrl' | 'action'>
  host?: PopupHost
  timeoutMs?: number
  pollMs?: number
  texts?: typeof CROSS_APP_TEXTS
  /** A window already opened inside the click (null: blocked), instead of opening one now. */
  popup?: PopupWindow | null
}

/** The popup's window name and features (opened empty inside the click). */
export const TRANSACT_WINDOW = ['portico-cross-app', 'popup,width=440,height=640'] as const

export interface Transaction {
  readonly result: Promise<{ code: string; verifier: string }>
  cancel(): void
  claim(): boolean
  readonly claimed: boolean
}

export const encodeRequest = (r: CrossAppRequest) => base64url(new TextEncoder().encode(JSON.stringify(r)))
export function decodeRequest(s: string): CrossAppRequest | null {
  try {
    const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'))
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)))) as CrossAppRequest
  } catch {
    return null
  }
}

export function openTransact(o: TransactOptions): Transaction {
  const T = o.texts ?? CROSS_APP_TEXTS
  const host = o.host ?? (window as unknown as PopupHost)
  const pageOrigin = new URL(o.transactUrl).origin
  const verifier = createVerifier()
  const state = createStateCode()
  let claimed = false
  const popup = o.popup !== undefined ? o.popup : openPopup(host, ...TRANSACT_WINDOW)

  const transaction = (result: Promise<{ code: string; verifier: string }>, cancel: () => void): Transaction => {
    result.catch(() => {})
    return {
      result,
      cancel,
      claim: () => (claimed ? false : (claimed = true)),
      get claimed() {
        return claimed
      },
    }
  }
  if (!popup) return transaction(Promise.reject(crossAppError('cross_app_popup_blocked', T.popupBlocked)), () => {})

  let settled = false
  const watch = watchPopup<{ code: string; verifier: string }>(host, popup, {
    origin: pageOrigin,
    timeoutMs: o.timeoutMs ?? TRANSACT_TIMEOUT_MS,
    pollMs: o.pollMs,
    originMismatch: () => crossAppError('oauth_unexpected', T.originMismatch),
    rejected: () => crossAppError('oauth_user_denied', T.userRejected),
    timedOut: () => crossAppError('client_request_timeout', T.timedOut),
    accept(raw) {
      const data = raw as { type?: unknown; state?: unknown; code?: unknown; error?: unknown } | null
      if (!data || data.type !== CROSS_APP_RESPONSE) return undefined
      if (data.state !== state) return { error: crossAppError('oauth_unexpected', T.unexpectedFlow) }
      if (data.error === 'rejected') return { error: crossAppError('oauth_user_denied', T.userRejected) }
      if (typeof data.code !== 'string' || !data.code) return { error: crossAppError('oauth_unexpected', T.unexpectedFlow) }
      return { value: { code: data.code, verifier } }
    },
  })
  const result = watch.result.finally(() => (settled = true))
  challengeOf(verifier).then(
    (challenge) => {
      if (settled) return
      const request: CrossAppRequest = { ...o.request, popup: true, code_challenge: challenge, origin: host.location.origin, provider_app_id: o.providerAppId }
      const url = new URL(o.transactUrl)
      url.searchParams.set('token', state)
      url.searchParams.set('request', encodeRequest(request))
      popup.location.href = url.href
    },
    (e) => watch.fail(crossAppError('oauth_unexpected', T.unexpectedFlow, e)),
  )
  return transaction(result, watch.cancel)
}
