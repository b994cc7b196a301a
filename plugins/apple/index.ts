/**
 * portico/plugins/apple — log in with Apple (part 1 sections 1, 2, 7): the shared OAuth engine
 * of `portico/plugins/oauth` with Apple's descriptor. Importing it ships no other provider.
 *
 * ```ts
 * import { apple } from 'portico/plugins/apple'
 * createPortico({ appId, plugins: [apple()] })            // redirect mode
 * createPortico({ appId, plugins: [apple({ mode: 'popup' })] })
 * ```
 *
 * The app's login methods must list 'apple'. Accounts: type 'apple_oauth', `user.apple`.
 */
import { defineOAuthProvider, type OAuthApi, type OAuthProviderDescriptor } from 'portico/plugins/oauth'
import { AppleLogo } from './logo'

export type { OAuthApi as AppleApi, OAuthOptions as AppleOptions } from 'portico/plugins/oauth'

declare module 'portico' {
  interface PluginApis {
    apple: OAuthApi
  }
}

/** Apple's descriptor: wire provider 'apple', display name and transfer label of part 1 section 2. */
export const APPLE_PROVIDER = {
  id: 'apple',
  provider: 'apple',
  displayName: 'Apple',
  transferLabel: 'Apple profile',
  icon: AppleLogo,
} as const satisfies OAuthProviderDescriptor

export const apple = defineOAuthProvider(APPLE_PROVIDER)
