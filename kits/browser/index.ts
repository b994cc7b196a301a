/**
 * portico/kits/browser — browser helpers several plugins share, each written once: PKCE
 * (RFC 7636) with the state code, and the popup host (open inside the click, watch for the
 * answer by `postMessage`), and a wait an AbortSignal ends. A kit, not a plugin; no React. See ./README.md.
 */
export { base64url, challengeOf, createStateCode, createVerifier } from './pkce'
export { openPopup, watchPopup } from './popup'
export { abortableSleep } from './sleep'
export type { PopupHost, PopupWatch, PopupWindow, WatchPopupOptions } from './popup'
