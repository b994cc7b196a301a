/**
 * Every plugin the demo turns on. Plugin authors: add yours here (one import, one entry).
 *
 * | plugin | login method ids | status |
 * |---|---|---|
 * | email | email | on |
 * | sms | sms | on |
 * | guest | guest | on |
 * | custom-auth | custom_auth (no landing entry; host token) | on |
 * | siwe | wallet (Ethereum) | on |
 * | siws | wallet (Solana) | on |
 * | account | account-link-conflict / account-check-assets screens | on |
 * | farcaster | farcaster (app portico-test-farcaster-01) | on |
 * | cross-app | cross_app (apps portico-test-xrequest-001 → portico-test-xprovider-01); /oauth/transact page | on |
 * | oauth (google, ...), passkey, telegram | — | not built yet |
 */
import type { PorticoPlugin } from 'portico'
import { email } from 'portico/plugins/email'
import { sms } from 'portico/plugins/sms'
import { guest } from 'portico/plugins/guest'
import { customAuth } from 'portico/plugins/custom-auth'
import { hostAuth } from './host-auth'
import { siwe } from 'portico/plugins/siwe'
import { siws } from 'portico/plugins/siws'
import { account } from 'portico/plugins/account'
import { farcaster } from 'portico/plugins/farcaster'
import { crossApp } from 'portico/plugins/cross-app'
import { acmeId } from '../../custom-plugin/src/index' // third-party example: Acme ID (app portico-test-acmeid-00001)

export function demoPlugins(): PorticoPlugin[] {
  return [email(), sms(), guest(), customAuth({ getCustomAccessToken: hostAuth.getCustomAccessToken }), siwe(), siws(), account(), acmeId(), farcaster(), crossApp()]
}
