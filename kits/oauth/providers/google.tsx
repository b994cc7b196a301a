/**
 * portico/plugins/google — log in with Google (part 1 sections 1, 2, 7): the OAuth kit
 * (`portico/kits/oauth`) with Google's descriptor. Importing it ships no other provider.
 *
 * ```ts
 * import { google } from 'portico/plugins/google'
 * createPortico({ appId, plugins: [google({ mode: 'popup' })] })   // default mode: redirect
 * ```
 *
 * The app's login methods must list 'google'. Accounts: type 'google_oauth', `user.google`.
 * The profile the server maps: OpenID Connect userinfo: sub, email, name (no username). The providers' table: kits/oauth/README.md.
 */
import type { SVGProps } from 'react'
import { defineOAuthProvider, type OAuthApi, type OAuthProviderDescriptor } from 'portico/kits/oauth'
import type { OAuthAccount } from 'portico'

export type { OAuthApi as GoogleApi, OAuthOptions as GoogleOptions } from 'portico/kits/oauth'

declare module 'portico' {
  interface PluginApis {
    google: OAuthApi
  }
  interface UserFields {
    google?: OAuthAccount
  }
}

/** Google's "G" in its four colours (inline SVG, presentation attributes only: safe under a strict CSP). */
function GoogleLogo(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" width={20} height={20} aria-hidden="true" focusable="false" fill="none" strokeWidth={3.4} {...props}>
      <path d="M4.95 9.44A7.5 7.5 0 0 1 17.75 7.18" stroke="#ea4335" />
      <path d="M6.7 17.3A7.5 7.5 0 0 1 4.95 9.44" stroke="#fbbc05" />
      <path d="M17.3 17.3A7.5 7.5 0 0 1 6.7 17.3" stroke="#34a853" />
      <path d="M12 12h7.5A7.5 7.5 0 0 1 17.3 17.3" stroke="#4285f4" />
    </svg>
  )
}

/** Google's descriptor: wire provider 'google', display name and transfer label of part 1 section 2. */
export const GOOGLE_PROVIDER = {
  id: 'google',
  provider: 'google',
  displayName: 'Google',
  transferLabel: 'Google profile',
  icon: GoogleLogo,
  // Google refuses OAuth in embedded webviews (disallowed_useragent): the in-app-browser screen instead.
  refusesInAppBrowsers: true,
} as const satisfies OAuthProviderDescriptor

export const google = defineOAuthProvider(GOOGLE_PROVIDER)
