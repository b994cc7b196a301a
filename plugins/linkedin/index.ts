/**
 * portico/plugins/linkedin — log in with LinkedIn (part 1 sections 1, 2, 7): the shared OAuth engine
 * of `portico/plugins/oauth` with LinkedIn's descriptor. Importing it ships no other provider.
 *
 * ```ts
 * import { linkedin } from 'portico/plugins/linkedin'
 * createPortico({ appId, plugins: [linkedin()] })            // redirect mode
 * createPortico({ appId, plugins: [linkedin({ mode: 'popup' })] })
 * ```
 *
 * The app's login methods must list 'linkedin'. Accounts: type 'linkedin_oauth', `user.linkedin`.
 */
import { defineOAuthProvider, type OAuthApi, type OAuthProviderDescriptor } from 'portico/plugins/oauth'
import { LinkedInLogo } from './logo'

export type { OAuthApi as LinkedInApi, OAuthOptions as LinkedInOptions } from 'portico/plugins/oauth'

declare module 'portico' {
  interface PluginApis {
    linkedin: OAuthApi
  }
}

/** LinkedIn's descriptor: wire provider 'linkedin', display name and transfer label of part 1 section 2. */
export const LINKEDIN_PROVIDER = {
  id: 'linkedin',
  provider: 'linkedin',
  displayName: 'LinkedIn',
  transferLabel: 'LinkedIn profile',
  icon: LinkedInLogo,
} as const satisfies OAuthProviderDescriptor

export const linkedin = defineOAuthProvider(LINKEDIN_PROVIDER)
