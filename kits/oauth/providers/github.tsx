/**
 * portico/plugins/github — log in with GitHub (part 1 sections 1, 2, 7): the OAuth kit
 * (`portico/kits/oauth`) with GitHub's descriptor. Importing it ships no other provider.
 *
 * ```ts
 * import { github } from 'portico/plugins/github'
 * createPortico({ appId, plugins: [github({ mode: 'popup' })] })   // default mode: redirect
 * ```
 *
 * The app's login methods must list 'github'. Accounts: type 'github_oauth', `user.github`.
 * The profile the server maps: /user: id (a number, as a string), login, name, email (null when private). The providers' table: kits/oauth/README.md.
 */
import type { SVGProps } from 'react'
import { defineOAuthProvider, type OAuthApi, type OAuthProviderDescriptor } from 'portico/kits/oauth'
import type { OAuthAccount } from 'portico'

export type { OAuthApi as GitHubApi, OAuthOptions as GitHubOptions } from 'portico/kits/oauth'

declare module 'portico' {
  interface PluginApis {
    github: OAuthApi
  }
  interface UserFields {
    github?: OAuthAccount
  }
}

/** GitHub's mark, in the text colour (inline SVG, presentation attributes only: safe under a strict CSP). */
function GitHubLogo(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" width={20} height={20} aria-hidden="true" focusable="false" fill="currentColor" {...props}>
      <path d="M12 2C6.48 2 2 6.58 2 12.23c0 4.52 2.87 8.35 6.84 9.7.5.1.68-.22.68-.49 0-.24-.01-.88-.01-1.73-2.78.62-3.37-1.37-3.37-1.37-.45-1.18-1.11-1.5-1.11-1.5-.91-.64.07-.62.07-.62 1 .07 1.53 1.06 1.53 1.06.89 1.56 2.34 1.11 2.91.85.09-.66.35-1.11.63-1.37-2.22-.26-4.56-1.14-4.56-5.07 0-1.12.39-2.03 1.03-2.75-.1-.26-.45-1.3.1-2.71 0 0 .84-.28 2.75 1.05A9.4 9.4 0 0 1 12 6.84c.85 0 1.71.12 2.51.35 1.91-1.33 2.75-1.05 2.75-1.05.55 1.41.2 2.45.1 2.71.64.72 1.03 1.63 1.03 2.75 0 3.94-2.34 4.81-4.57 5.06.36.32.68.94.68 1.9 0 1.37-.01 2.47-.01 2.81 0 .27.18.6.69.49A10.1 10.1 0 0 0 22 12.23C22 6.58 17.52 2 12 2z" />
    </svg>
  )
}

/** GitHub's descriptor: wire provider 'github', display name and transfer label of part 1 section 2. */
export const GITHUB_PROVIDER = {
  id: 'github',
  provider: 'github',
  displayName: 'GitHub',
  transferLabel: 'GitHub profile',
  icon: GitHubLogo,
} as const satisfies OAuthProviderDescriptor

export const github = defineOAuthProvider(GITHUB_PROVIDER)
