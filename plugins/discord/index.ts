/**
 * portico/plugins/discord — log in with Discord (part 1 sections 1, 2, 7): the shared OAuth engine
 * of `portico/plugins/oauth` with Discord's descriptor. Importing it ships no other provider.
 *
 * ```ts
 * import { discord } from 'portico/plugins/discord'
 * createPortico({ appId, plugins: [discord()] })            // redirect mode
 * createPortico({ appId, plugins: [discord({ mode: 'popup' })] })
 * ```
 *
 * The app's login methods must list 'discord'. Accounts: type 'discord_oauth', `user.discord`.
 */
import { defineOAuthProvider, type OAuthApi, type OAuthProviderDescriptor } from 'portico/plugins/oauth'
import { DiscordLogo } from './logo'

export type { OAuthApi as DiscordApi, OAuthOptions as DiscordOptions } from 'portico/plugins/oauth'

declare module 'portico' {
  interface PluginApis {
    discord: OAuthApi
  }
}

/** Discord's descriptor: wire provider 'discord', display name and transfer label of part 1 section 2. */
export const DISCORD_PROVIDER = {
  id: 'discord',
  provider: 'discord',
  displayName: 'Discord',
  transferLabel: 'Discord profile',
  icon: DiscordLogo,
} as const satisfies OAuthProviderDescriptor

export const discord = defineOAuthProvider(DISCORD_PROVIDER)
