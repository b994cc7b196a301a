/**
 * portico/plugins/github — log in with GitHub (part 1 sections 1, 2, 7): the shared OAuth engine
 * of `portico/plugins/oauth` with GitHub's descriptor. Importing it ships no other provider.
 *
 * ```ts
 * import { github } from 'portico/plugins/github'
 * createPortico({ appId, plugins: [github()] })            // redirect mode
 * createPortico({ appId, plugins: [github({ mode: 'popup' })] })
 * ```
 *
 * The app's login methods must list 'github'. Accounts: type 'github_oauth', `user.github`.
 */
import { defineOAuthProvider, type OAuthApi, type OAuthProviderDescriptor } from 'portico/plugins/oauth'
import { GitHubLogo } from './logo'

export type { OAuthApi as GitHubApi, OAuthOptions as GitHubOptions } from 'portico/plugins/oauth'

declare module 'portico' {
  interface PluginApis {
    github: OAuthApi
  }
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
