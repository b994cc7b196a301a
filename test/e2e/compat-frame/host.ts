/**
 * A host page written for the published client of this wire contract
 * (`@privy-io/js-sdk-core`, pinned), unchanged but for its base URL: it loads the wallet frame
 * the client names (`<API origin>/apps/{appId}/embedded-wallets`) in a hidden iframe, hands the
 * client the frame's window and the frame's replies (origin and source checked), and answers
 * the client's MFA prompt with the code the test gives. compat-frame.spec.ts drives it.
 */
import Privy, { LocalStorage } from '@privy-io/js-sdk-core'
import { startAuthentication, startRegistration } from '@simplewebauthn/browser'

const cfg = JSON.parse(document.getElementById('compat-config')!.textContent!) as { appId: string; apiUrl: string }
const apiOrigin = new URL(cfg.apiUrl).origin

// `baseUrl` is the client's constructor option for its API origin (not in its published types).
const privy = new Privy({ appId: cfg.appId, storage: new LocalStorage(), baseUrl: cfg.apiUrl } as ConstructorParameters<typeof Privy>[0])

const iframe = document.createElement('iframe')
iframe.src = privy.embeddedWallet.getURL()
iframe.title = 'Embedded wallet'
iframe.width = '0'
iframe.height = '0'
document.body.appendChild(iframe)
privy.setMessagePoster({
  postMessage: (message: unknown, targetOrigin: string) => iframe.contentWindow!.postMessage(message, targetOrigin),
  reload: () => {
    iframe.src = privy.embeddedWallet.getURL()
  },
})
window.addEventListener('message', (e: MessageEvent) => {
  if (e.origin !== apiOrigin || e.source !== iframe.contentWindow) return
  privy.embeddedWallet.onMessage(e.data)
})

// The client asks for an MFA code through this event; the test answers with `submitMfa`.
let mfaPrompts = 0
privy.mfaPromises.on('mfaRequired', () => {
  mfaPrompts++
})

// Each attempt of the client's MFA loop puts a fresh resolver in rootPromise.current.
let answered: unknown = null
const compat = {
  privy,
  /** How many times the client started asking for an MFA code. */
  mfaPrompts: () => mfaPrompts,
  /** The client waits for a code (a prompt not answered yet). */
  mfaPending: () => !!privy.mfaPromises.rootPromise.current && privy.mfaPromises.rootPromise.current !== answered,
  /** Answers the client's pending MFA prompt. */
  submitMfa(mfaMethod: 'totp' | 'sms' | 'passkey', mfaCode: unknown) {
    const pending = privy.mfaPromises.rootPromise.current
    if (!pending || pending === answered) throw new Error('no MFA prompt is pending')
    answered = pending
    pending.resolve({ mfaMethod, mfaCode: mfaCode as string, relyingParty: location.origin })
  },
  /** The app's own WebAuthn calls (the passkey MFA prompt; linking a passkey in set-up). */
  webauthn: { startAuthentication, startRegistration },
  apiUrl: cfg.apiUrl,
  appId: cfg.appId,
}
;(window as unknown as { compat: typeof compat }).compat = compat
privy.initialize().then(
  () => document.body.setAttribute('data-ready', 'true'),
  (e: Error) => document.body.setAttribute('data-error', String(e?.message ?? e)),
)
