/**
 * portico/plugins/linkedin — log in with LinkedIn (part 1 sections 1, 2, 7): the OAuth kit
 * (`portico/kits/oauth`) with LinkedIn's descriptor. Importing it ships no other provider.
 *
 * ```ts
 * import { linkedin } from 'portico/plugins/linkedin'
 * createPortico({ appId, plugins: [linkedin({ mode: 'popup' })] })   // default mode: redirect
 * ```
 *
 * The app's login methods must list 'linkedin'. Accounts: type 'linkedin_oauth', `user.linkedin`.
 * The profile the server maps: OpenID Connect userinfo: sub, email, name. The providers' table: kits/oauth/README.md.
 */
import type { SVGProps } from 'react'
import { defineOAuthProvider, type OAuthApi, type OAuthProviderDescriptor } from 'portico/kits/oauth'
import type { OAuthAccount } from 'portico'

export type { OAuthApi as LinkedInApi, OAuthOptions as LinkedInOptions } from 'portico/kits/oauth'

declare module 'portico' {
  interface PluginApis {
    linkedin: OAuthApi
  }
  interface UserFields {
    linkedin?: OAuthAccount
  }
}

/** LinkedIn's "in" on its blue (inline SVG, presentation attributes only: safe under a strict CSP). */
function LinkedInLogo(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" width={20} height={20} aria-hidden="true" focusable="false" {...props}>
      <rect x="2" y="2" width="20" height="20" rx="3" fill="#0a66c2" />
      <g fill="#fff">
        <rect x="5.8" y="9.5" width="2.7" height="8.5" />
        <circle cx="7.15" cy="6.6" r="1.55" />
        <path d="M10.6 9.5h2.6v1.2c.5-.9 1.6-1.5 2.9-1.5 2.3 0 3.2 1.4 3.2 3.8V18h-2.7v-4.6c0-1.2-.3-2-1.4-2s-1.9.8-1.9 2.1V18h-2.7z" />
      </g>
    </svg>
  )
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
