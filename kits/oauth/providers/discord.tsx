/**
 * portico/plugins/discord — log in with Discord (part 1 sections 1, 2, 7): the OAuth kit
 * (`portico/kits/oauth`) with Discord's descriptor. Importing it ships no other provider.
 *
 * ```ts
 * import { discord } from 'portico/plugins/discord'
 * createPortico({ appId, plugins: [discord({ mode: 'popup' })] })   // default mode: redirect
 * ```
 *
 * The app's login methods must list 'discord'. Accounts: type 'discord_oauth', `user.discord`.
 * The profile the server maps: /users/@me: id, username, global_name, email. The providers' table: kits/oauth/README.md.
 */
import type { SVGProps } from 'react'
import { defineOAuthProvider, type OAuthApi, type OAuthProviderDescriptor } from 'portico/kits/oauth'
import type { OAuthAccount } from 'portico'

export type { OAuthApi as DiscordApi, OAuthOptions as DiscordOptions } from 'portico/kits/oauth'

declare module 'portico' {
  interface PluginApis {
    discord: OAuthApi
  }
  interface UserFields {
    discord?: OAuthAccount
  }
}

/** Discord's mark on its blurple (inline SVG, presentation attributes only: safe under a strict CSP). */
function DiscordLogo(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" width={20} height={20} aria-hidden="true" focusable="false" {...props}>
      <rect x="1" y="1" width="22" height="22" rx="5" fill="#5865f2" />
      <path
        fill="#fff"
        d="M17.3 7.3A13 13 0 0 0 14 6.3l-.4.8a12 12 0 0 0-3.2 0L10 6.3a13 13 0 0 0-3.3 1C4.6 10.4 4 13.4 4.3 16.4a13 13 0 0 0 4 2l.8-1.3a8.5 8.5 0 0 1-1.3-.6l.3-.2a9.3 9.3 0 0 0 7.9 0l.3.2c-.4.2-.9.4-1.3.6l.8 1.3a13 13 0 0 0 4-2c.4-3.5-.6-6.5-2.5-9.1z"
      />
      <g fill="#5865f2">
        <ellipse cx="9.5" cy="13.1" rx="1.35" ry="1.5" />
        <ellipse cx="14.5" cy="13.1" rx="1.35" ry="1.5" />
      </g>
    </svg>
  )
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
