/**
 * The identity plugins, the set issue 11's "every built-in plugin on, at most
 * 60 KiB gzip" target was set for (part 1's login methods: the twenty plugins below, plus one
 * captcha provider), each with its default options. Not in this set: embedded wallets,
 * approvals, wallet export, delegated actions, MFA, funding and the external wallets
 * (phantom, walletconnect, coinbase-wallet), which came after the target (part 2 and the
 * later issues); `code`, `oauth`, `wallet` and `captcha` are bases their plugins import.
 *
 * | plugins | |
 * |---|---|
 * | email, sms, guest, custom-auth, siwe, siws, account | the seven of plugin contract v2 |
 * | google, apple, github, twitter, discord, linkedin, spotify, tiktok, instagram | the nine OAuth providers (one plugin each, on the oauth base) |
 * | passkey, telegram, farcaster, cross-app | the other login methods of part 1 |
 * | turnstile | captcha (part 1 section 5), one provider: an app runs one (hcaptcha is the other) |
 */
import { email } from 'portico/plugins/email'
import { sms } from 'portico/plugins/sms'
import { guest } from 'portico/plugins/guest'
import { customAuth } from 'portico/plugins/custom-auth'
import { siwe } from 'portico/plugins/siwe'
import { siws } from 'portico/plugins/siws'
import { account } from 'portico/plugins/account'
import { google } from 'portico/plugins/google'
import { apple } from 'portico/plugins/apple'
import { github } from 'portico/plugins/github'
import { twitter } from 'portico/plugins/twitter'
import { discord } from 'portico/plugins/discord'
import { linkedin } from 'portico/plugins/linkedin'
import { spotify } from 'portico/plugins/spotify'
import { tiktok } from 'portico/plugins/tiktok'
import { instagram } from 'portico/plugins/instagram'
import { passkey } from 'portico/plugins/passkey'
import { telegram } from 'portico/plugins/telegram'
import { farcaster } from 'portico/plugins/farcaster'
import { crossApp } from 'portico/plugins/cross-app'
import { turnstile } from 'portico/plugins/turnstile'
import type { PorticoPlugin } from 'portico'

/** The identity plugins, at their default options (used by both bench hosts). */
export function identityPlugins(): PorticoPlugin[] {
  return [
    email(),
    sms(),
    guest(),
    customAuth(),
    siwe(),
    siws(),
    account(),
    google(),
    apple(),
    github(),
    twitter(),
    discord(),
    linkedin(),
    spotify(),
    tiktok(),
    instagram(),
    passkey(),
    telegram(),
    farcaster(),
    crossApp(),
    turnstile(),
  ]
}
