/**
 * portico/plugins/instagram — log in with Instagram (part 1 sections 1, 2, 7): the OAuth kit
 * (`portico/kits/oauth`) with Instagram's descriptor. Importing it ships no other provider.
 *
 * ```ts
 * import { instagram } from 'portico/plugins/instagram'
 * createPortico({ appId, plugins: [instagram({ mode: 'popup' })] })   // default mode: redirect
 * ```
 *
 * The app's login methods must list 'instagram'. Accounts: type 'instagram_oauth', `user.instagram`.
 * The profile the server maps: /me: id, username (no e-mail). The providers' table: kits/oauth/README.md.
 */
import { useId, type SVGProps } from 'react'
import { defineOAuthProvider, type OAuthApi, type OAuthProviderDescriptor } from 'portico/kits/oauth'
import type { OAuthAccount } from 'portico'

export type { OAuthApi as InstagramApi, OAuthOptions as InstagramOptions } from 'portico/kits/oauth'

declare module 'portico' {
  interface PluginApis {
    instagram: OAuthApi
  }
  interface UserFields {
    instagram?: OAuthAccount
  }
}

/** Instagram's camera on its gradient (inline SVG, presentation attributes only: safe under a strict CSP). */
function InstagramLogo(props: SVGProps<SVGSVGElement>) {
  // One gradient id per drawing: several on a page must not share it.
  const id = `portico-ig-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`
  return (
    <svg viewBox="0 0 24 24" width={20} height={20} aria-hidden="true" focusable="false" {...props}>
      <defs>
        <linearGradient id={id} x1="0" y1="1" x2="1" y2="0">
          <stop offset="0" stopColor="#feda75" />
          <stop offset="0.35" stopColor="#fa7e1e" />
          <stop offset="0.6" stopColor="#d62976" />
          <stop offset="1" stopColor="#4f5bd5" />
        </linearGradient>
      </defs>
      <rect x="2" y="2" width="20" height="20" rx="6" fill={`url(#${id})`} />
      <g fill="none" stroke="#fff" strokeWidth={1.8}>
        <rect x="5.5" y="5.5" width="13" height="13" rx="4" />
        <circle cx="12" cy="12" r="3.2" />
      </g>
      <circle cx="16.1" cy="7.9" r="1" fill="#fff" />
    </svg>
  )
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
