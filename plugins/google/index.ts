/**
 * portico/plugins/google — log in with Google (part 1 sections 1, 2, 7): the shared OAuth engine
 * of `portico/plugins/oauth` with Google's descriptor. Importing it ships no other provider.
 *
 * ```ts
 * import { google } from 'portico/plugins/google'
 * createPortico({ appId, plugins: [google()] })            // redirect mode
 * createPortico({ appId, plugins: [google({ mode: 'popup' })] })
 * ```
 *
 * The app's login methods must list 'google'. Accounts: type 'google_oauth', `user.google`.
 */
import { defineOAuthProvider, type OAuthApi, type OAuthProviderDescriptor } from 'portico/plugins/oauth'
import { GoogleLogo } from './logo'

export type { OAuthApi as GoogleApi, OAuthOptions as GoogleOptions } from 'portico/plugins/oauth'

declare module 'portico' {
  interface PluginApis {
    google: OAuthApi
  }
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
