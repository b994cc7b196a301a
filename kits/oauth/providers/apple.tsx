/**
 * portico/plugins/apple — log in with Apple (part 1 sections 1, 2, 7): the OAuth kit
 * (`portico/kits/oauth`) with Apple's descriptor. Importing it ships no other provider.
 *
 * ```ts
 * import { apple } from 'portico/plugins/apple'
 * createPortico({ appId, plugins: [apple({ mode: 'popup' })] })   // default mode: redirect
 * ```
 *
 * The app's login methods must list 'apple'. Accounts: type 'apple_oauth', `user.apple`.
 * The profile the server maps: id_token claims: sub, email (a relay address when hidden); the name comes only on first consent, by form_post. The providers' table: kits/oauth/README.md.
 */
import type { SVGProps } from 'react'
import { defineOAuthProvider, type OAuthApi, type OAuthProviderDescriptor } from 'portico/kits/oauth'
import type { OAuthAccount } from 'portico'

export type { OAuthApi as AppleApi, OAuthOptions as AppleOptions } from 'portico/kits/oauth'

declare module 'portico' {
  interface PluginApis {
    apple: OAuthApi
  }
  interface UserFields {
    apple?: OAuthAccount
  }
}

/** Apple's mark, in the text colour (inline SVG, presentation attributes only: safe under a strict CSP). */
function AppleLogo(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" width={20} height={20} aria-hidden="true" focusable="false" fill="currentColor" {...props}>
      <path d="M16.4 12.6c0-2.3 1.9-3.4 2-3.5-1.1-1.6-2.8-1.8-3.4-1.8-1.4-.1-2.8.9-3.5.9-.7 0-1.8-.8-3-.8-1.5 0-3 .9-3.8 2.3-1.6 2.8-.4 7 1.2 9.3.8 1.1 1.7 2.4 2.9 2.3 1.2 0 1.6-.7 3-.7s1.8.7 3 .7c1.3 0 2.1-1.1 2.8-2.3.9-1.3 1.3-2.6 1.3-2.6s-2.5-1-2.5-3.8z" />
      <path d="M14.1 5.8c.6-.8 1.1-1.8 1-2.8-.9 0-2 .6-2.7 1.4-.6.7-1.1 1.7-1 2.7 1 .1 2-.5 2.7-1.3z" />
    </svg>
  )
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
