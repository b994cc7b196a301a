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
 * | passkey | passkey (app portico-test-passkey-0001) | on |
 * | google, apple, github, twitter, discord, linkedin, spotify, tiktok, instagram | the provider ids | on (`?oauth=popup`, `?noSignup=1`) |
 * | telegram | telegram (widget from telegram.org; Mini App launch data) | on |
 * | turnstile | captcha (apps with captcha on) | on |
 * | farcaster | farcaster (app portico-test-farcaster-01) | on |
 * | cross-app | cross_app (apps portico-test-xrequest-001 → portico-test-xprovider-01); /oauth/transact page | on |
 * | embedded-wallet | (no login method) wallets on login, wallet panel (`?frame=`, `?rpc=`, `?createOnLogin=`) | on |
 * | approvals | (no login method) sign / transaction screens, approvals panel (`?approvals=1\|0`, `?svm=`) | demo app and portico-test-apv-* |
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
import { google } from 'portico/plugins/google'
import { apple } from 'portico/plugins/apple'
import { github } from 'portico/plugins/github'
import { twitter } from 'portico/plugins/twitter'
import { discord } from 'portico/plugins/discord'
import { linkedin } from 'portico/plugins/linkedin'
import { spotify } from 'portico/plugins/spotify'
import { tiktok } from 'portico/plugins/tiktok'
import { instagram } from 'portico/plugins/instagram'
import type { OAuthOptions } from 'portico/plugins/oauth'
import { passkey } from 'portico/plugins/passkey'
import { telegram } from 'portico/plugins/telegram'
import { turnstile } from 'portico/plugins/turnstile'
import { farcaster } from 'portico/plugins/farcaster'
import { crossApp } from 'portico/plugins/cross-app'
import { embeddedWallet } from 'portico/plugins/embedded-wallet'
import { withApprovalsDemo } from './approvals-settings'
import type { Chain } from 'viem'
import type { DemoWalletSettings } from './settings'
import { acmeId } from '../../custom-plugin/src/index' // third-party example: Acme ID (app portico-test-acmeid-00001)

/** The local EVM chain `npm start` runs (hardhat, chain id 31337); a plain object keeps viem out of the initial load. */
function localChain(rpc: string): Chain {
  return { id: 31337, name: 'Hardhat', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpc] } } }
}

export function demoPlugins(oauth: OAuthOptions = {}, wallet?: DemoWalletSettings): PorticoPlugin[] {
  return withApprovalsDemo([
    email(),
    sms(),
    guest(),
    customAuth({ getCustomAccessToken: hostAuth.getCustomAccessToken }),
    siwe(),
    siws(),
    account(),
    passkey(),
    acmeId(),
    telegram(),
    turnstile(),
    farcaster(),
    crossApp(),
    embeddedWallet({
      frameUrl: wallet?.frameUrl,
      createOnLogin: wallet?.createOnLogin,
      createdScreenMs: wallet?.createdScreenMs,
      chains: [localChain(wallet?.rpc ?? 'http://127.0.0.1:8545')],
    }),
    ...[google, apple, github, twitter, discord, linkedin, spotify, tiktok, instagram].map((provider) => provider(oauth)),
  ])
}
