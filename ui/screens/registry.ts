/** The generic screens, loaded lazily so the first open ships only the landing. */
import type { ScreenDefinition } from 'portico'

const generic = () => import('./generic')

/** The landing (./landing.tsx), lazy too: preloaded at idle after the modal mounts (../modal/preload.ts). */
export const landingScreen: ScreenDefinition = { id: 'landing', load: () => import('./landing'), firstOpen: true }

export const GENERIC_SCREENS: ScreenDefinition[] = [
  { id: 'error', load: () => generic().then((m) => m.ErrorScreen), compact: true },
  { id: 'terms-consent', load: () => generic().then((m) => m.TermsConsent), canClose: false, compact: true },
  { id: 'allowlist-rejection', load: () => generic().then((m) => m.AllowlistRejection), compact: true },
  { id: 'account-not-found', load: () => generic().then((m) => m.AccountNotFound), compact: true },
  { id: 'user-limit', load: () => generic().then((m) => m.UserLimit), compact: true },
  { id: 'development-mode', load: () => generic().then((m) => m.DevelopmentMode), compact: true },
  { id: 'loading', load: () => generic().then((m) => m.LoadingScreen), compact: true },
  { id: 'in-app-browser', load: () => generic().then((m) => m.InAppBrowser), compact: true },
]
