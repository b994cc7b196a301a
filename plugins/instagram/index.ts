/**
 * portico/plugins/instagram — log in with Instagram (part 1 sections 1, 2, 7): the shared OAuth engine
 * of `portico/plugins/oauth` with Instagram's descriptor. Importing it ships no other provider.
 *
 * ```ts
 * import { instagram } from 'portico/plugins/instagram'
 * createPortico({ appId, plugins: [instagram()] })            // redirect mode
 * createPortico({ appId, plugins: [instagram({ mode: 'popup' })] })
 * ```
 *
 * The app's login methods must list 'instagram'. Accounts: type 'instagram_oauth', `user.instagram`.
 */
import { defineOAuthProvider, type OAuthApi, type OAuthProviderDescriptor } from 'portico/plugins/oauth'
import { InstagramLogo } from './logo'

export type { OAuthApi as InstagramApi, OAuthOptions as InstagramOptions } from 'portico/plugins/oauth'

declare module 'portico' {
  interface PluginApis {
    instagram: OAuthApi
  }
}

/** Instagram's descriptor: wire provider 'instagram', display name and transfer label of part 1 section 2. */
export const INSTAGRAM_PROVIDER = {
  id: 'instagram',
  provider: 'instagram',
  displayName: 'Instagram',
  transferLabel: 'Instagram profile',
  icon: InstagramLogo,
} as const satisfies OAuthProviderDescriptor

export const instagram = defineOAuthProvider(INSTAGRAM_PROVIDER)
