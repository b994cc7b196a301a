/**
 * portico/plugins/tiktok — log in with TikTok (part 1 sections 1, 2, 7): the OAuth kit
 * (`portico/kits/oauth`) with TikTok's descriptor. Importing it ships no other provider.
 *
 * ```ts
 * import { tiktok } from 'portico/plugins/tiktok'
 * createPortico({ appId, plugins: [tiktok({ mode: 'popup' })] })   // default mode: redirect
 * ```
 *
 * The app's login methods must list 'tiktok'. Accounts: type 'tiktok_oauth', `user.tiktok`.
 * The profile the server maps: /v2/user/info/: open_id, display_name, username (no e-mail). The providers' table: kits/oauth/README.md.
 */
import type { SVGProps } from 'react'
import { defineOAuthProvider, type OAuthApi, type OAuthProviderDescriptor } from 'portico/kits/oauth'
import type { OAuthAccount } from 'portico'

export type { OAuthApi as TikTokApi, OAuthOptions as TikTokOptions } from 'portico/kits/oauth'

declare module 'portico' {
  interface PluginApis {
    tiktok: OAuthApi
  }
  interface UserFields {
    tiktok?: OAuthAccount
  }
}

/** TikTok's note with its cyan and red echoes (inline SVG, presentation attributes only: safe under a strict CSP). */
const NOTE = 'M16.5 3.5c.3 2 1.6 3.4 3.5 3.6v2.7a6.3 6.3 0 0 1-3.5-1.1v6.1a5.3 5.3 0 1 1-5.3-5.3c.3 0 .6 0 .9.1v2.8a2.6 2.6 0 1 0 1.8 2.5V3.5z'

function TikTokLogo(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" width={20} height={20} aria-hidden="true" focusable="false" {...props}>
      <path d={NOTE} fill="#25f4ee" transform="translate(-0.9 -0.6)" />
      <path d={NOTE} fill="#fe2c55" transform="translate(0.9 0.6)" />
      <path d={NOTE} fill="currentColor" />
    </svg>
  )
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
