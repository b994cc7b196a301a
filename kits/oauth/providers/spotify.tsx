/**
 * portico/plugins/spotify — log in with Spotify (part 1 sections 1, 2, 7): the OAuth kit
 * (`portico/kits/oauth`) with Spotify's descriptor. Importing it ships no other provider.
 *
 * ```ts
 * import { spotify } from 'portico/plugins/spotify'
 * createPortico({ appId, plugins: [spotify({ mode: 'popup' })] })   // default mode: redirect
 * ```
 *
 * The app's login methods must list 'spotify'. Accounts: type 'spotify_oauth', `user.spotify`.
 * The profile the server maps: /v1/me: id, display_name, email. The providers' table: kits/oauth/README.md.
 */
import type { SVGProps } from 'react'
import { defineOAuthProvider, type OAuthApi, type OAuthProviderDescriptor } from 'portico/kits/oauth'
import type { OAuthAccount } from 'portico'

export type { OAuthApi as SpotifyApi, OAuthOptions as SpotifyOptions } from 'portico/kits/oauth'

declare module 'portico' {
  interface PluginApis {
    spotify: OAuthApi
  }
  interface UserFields {
    spotify?: OAuthAccount
  }
}

/** Spotify's mark (inline SVG, presentation attributes only: safe under a strict CSP). */
function SpotifyLogo(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" width={20} height={20} aria-hidden="true" focusable="false" {...props}>
      <circle cx="12" cy="12" r="10" fill="#1db954" />
      <g fill="none" stroke="#fff" strokeLinecap="round">
        <path d="M6.6 9.3c3.5-1.1 7.6-.8 10.9 1" strokeWidth={1.9} />
        <path d="M7.2 12.5c2.9-.8 6.1-.5 8.7 1" strokeWidth={1.6} />
        <path d="M7.8 15.5c2.3-.6 4.7-.4 6.8.8" strokeWidth={1.3} />
      </g>
    </svg>
  )
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
