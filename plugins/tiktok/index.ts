/**
 * portico/plugins/tiktok — log in with TikTok (part 1 sections 1, 2, 7): the shared OAuth engine
 * of `portico/plugins/oauth` with TikTok's descriptor. Importing it ships no other provider.
 *
 * ```ts
 * import { tiktok } from 'portico/plugins/tiktok'
 * createPortico({ appId, plugins: [tiktok()] })            // redirect mode
 * createPortico({ appId, plugins: [tiktok({ mode: 'popup' })] })
 * ```
 *
 * The app's login methods must list 'tiktok'. Accounts: type 'tiktok_oauth', `user.tiktok`.
 */
import { defineOAuthProvider, type OAuthApi, type OAuthProviderDescriptor } from 'portico/plugins/oauth'
import { TikTokLogo } from './logo'

export type { OAuthApi as TikTokApi, OAuthOptions as TikTokOptions } from 'portico/plugins/oauth'

declare module 'portico' {
  interface PluginApis {
    tiktok: OAuthApi
  }
}

/** TikTok's descriptor: wire provider 'tiktok', display name and transfer label of part 1 section 2. */
export const TIKTOK_PROVIDER = {
  id: 'tiktok',
  provider: 'tiktok',
  displayName: 'TikTok',
  transferLabel: 'TikTok profile',
  icon: TikTokLogo,
} as const satisfies OAuthProviderDescriptor

export const tiktok = defineOAuthProvider(TIKTOK_PROVIDER)
