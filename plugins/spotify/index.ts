/**
 * portico/plugins/spotify — log in with Spotify (part 1 sections 1, 2, 7): the shared OAuth engine
 * of `portico/plugins/oauth` with Spotify's descriptor. Importing it ships no other provider.
 *
 * ```ts
 * import { spotify } from 'portico/plugins/spotify'
 * createPortico({ appId, plugins: [spotify()] })            // redirect mode
 * createPortico({ appId, plugins: [spotify({ mode: 'popup' })] })
 * ```
 *
 * The app's login methods must list 'spotify'. Accounts: type 'spotify_oauth', `user.spotify`.
 */
import { defineOAuthProvider, type OAuthApi, type OAuthProviderDescriptor } from 'portico/plugins/oauth'
import { SpotifyLogo } from './logo'

export type { OAuthApi as SpotifyApi, OAuthOptions as SpotifyOptions } from 'portico/plugins/oauth'

declare module 'portico' {
  interface PluginApis {
    spotify: OAuthApi
  }
}

/** Spotify's descriptor: wire provider 'spotify', display name and transfer label of part 1 section 2. */
export const SPOTIFY_PROVIDER = {
  id: 'spotify',
  provider: 'spotify',
  displayName: 'Spotify',
  transferLabel: 'Spotify profile',
  icon: SpotifyLogo,
} as const satisfies OAuthProviderDescriptor

export const spotify = defineOAuthProvider(SPOTIFY_PROVIDER)
