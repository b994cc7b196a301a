/**
 * portico/plugins/twitter — log in with Twitter (part 1 sections 1, 2, 7): the OAuth kit
 * (`portico/kits/oauth`) with Twitter's descriptor. Importing it ships no other provider.
 *
 * ```ts
 * import { twitter } from 'portico/plugins/twitter'
 * createPortico({ appId, plugins: [twitter({ mode: 'popup' })] })   // default mode: redirect
 * ```
 *
 * The app's login methods must list 'twitter'. Accounts: type 'twitter_oauth', `user.twitter`.
 * The profile the server maps: /2/users/me: data.id, data.name, data.username (no e-mail). The providers' table: kits/oauth/README.md.
 */
import type { SVGProps } from 'react'
import { defineOAuthProvider, type OAuthApi, type OAuthProviderDescriptor } from 'portico/kits/oauth'
import type { OAuthAccount } from 'portico'

export type { OAuthApi as TwitterApi, OAuthOptions as TwitterOptions } from 'portico/kits/oauth'

declare module 'portico' {
  interface PluginApis {
    twitter: OAuthApi
  }
  interface UserFields {
    twitter?: OAuthAccount
  }
}

/** Twitter's bird (inline SVG, presentation attributes only: safe under a strict CSP). */
function TwitterLogo(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" width={20} height={20} aria-hidden="true" focusable="false" fill="#1d9bf0" {...props}>
      <path d="M22 5.9c-.7.3-1.5.5-2.4.6.9-.5 1.5-1.3 1.8-2.3-.8.5-1.7.8-2.6 1-.8-.8-1.9-1.3-3-1.3-2.3 0-4.1 1.8-4.1 4.1 0 .3 0 .6.1.9-3.4-.2-6.4-1.8-8.4-4.3-.4.6-.6 1.3-.6 2.1 0 1.4.7 2.7 1.8 3.4-.7 0-1.3-.2-1.9-.5 0 2 1.4 3.6 3.3 4-.3.1-.7.1-1.1.1-.3 0-.5 0-.8-.1.5 1.6 2 2.8 3.8 2.8-1.4 1.1-3.2 1.8-5.1 1.8H2c1.8 1.2 4 1.8 6.3 1.8 7.5 0 11.7-6.3 11.7-11.7v-.5c.8-.6 1.5-1.3 2-2.1z" />
    </svg>
  )
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
