/**
 * The browser side of WebAuthn: @simplewebauthn/browser, loaded only when a passkey is used
 * (a dynamic import: the plugin's entry stays small), and the support check, which needs no
 * library.
 */
export type WebAuthnBrowser = typeof import('@simplewebauthn/browser')

let loading: Promise<WebAuthnBrowser> | null = null

/** Load @simplewebauthn/browser once (screens call it early so the dialogue opens at once). */
export function loadWebAuthn(): Promise<WebAuthnBrowser> {
  loading ??= import('@simplewebauthn/browser').catch((e) => {
    loading = null
    throw e
  })
  return loading
}

/** Part 1 section 5: the browser must support WebAuthn. */
export function webAuthnSupported(): boolean {
  const w = globalThis as { PublicKeyCredential?: unknown; navigator?: { credentials?: unknown } }
  return typeof w.PublicKeyCredential === 'function' && !!w.navigator?.credentials
}
