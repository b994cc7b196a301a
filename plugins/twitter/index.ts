/**
 * portico/plugins/twitter — log in with Twitter (part 1 sections 1, 2, 7): the shared OAuth engine
 * of `portico/plugins/oauth` with Twitter's descriptor. Importing it ships no other provider.
 *
 * ```ts
 * import { twitter } from 'portico/plugins/twitter'
 * createPortico({ appId, plugins: [twitter()] })            // redirect mode
 * createPortico({ appId, plugins: [twitter({ mode: 'popup' })] })
 * ```
 *
 * The app's login methods must list 'twitter'. Accounts: type 'twitter_oauth', `user.twitter`.
 */
import { defineOAuthProvider, type OAuthApi, type OAuthProviderDescriptor } from 'portico/plugins/oauth'
import { TwitterLogo } from './logo'

export type { OAuthApi as TwitterApi, OAuthOptions as TwitterOptions } from 'portico/plugins/oauth'

declare module 'portico' {
  interface PluginApis {
    twitter: OAuthApi
  }
}

/** Twitter's descriptor: wire provider 'twitter', display name and transfer label of part 1 section 2. */
export const TWITTER_PROVIDER = {
  id: 'twitter',
  provider: 'twitter',
  displayName: 'Twitter',
  transferLabel: 'Twitter profile',
  icon: TwitterLogo,
} as const satisfies OAuthProviderDescriptor

export const twitter = defineOAuthProvider(TWITTER_PROVIDER)
