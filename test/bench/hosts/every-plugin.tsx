/**
 * Bench host: every built-in plugin, each with its default options, and only host code
 * (./host.tsx: the provider and a login button; no demo panels, unlike examples/app). Every
 * folder of plugins/ whose entry exports a plugin is here (test/bench/size.test.ts checks);
 * the bases (`code`, `oauth`, `wallet`, `captcha`) come in through their plugins. Both
 * captcha providers are on, as in the demo, though an app runs one. Built, never run.
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
import { hcaptcha } from 'portico/plugins/hcaptcha'
import { phantom } from 'portico/plugins/phantom'
import { walletconnect } from 'portico/plugins/walletconnect'
import { coinbaseWallet } from 'portico/plugins/coinbase-wallet'
import { mfa } from 'portico/plugins/mfa'
import { mfaTotp } from 'portico/plugins/mfa-totp'
import { mfaSms } from 'portico/plugins/mfa-sms'
import { mfaPasskey } from 'portico/plugins/mfa-passkey'
import { embeddedWallet } from 'portico/plugins/embedded-wallet'
import { walletExport } from 'portico/plugins/wallet-export'
import { delegatedActions } from 'portico/plugins/delegated-actions'
import { approvals } from 'portico/plugins/approvals'
import { funding } from 'portico/plugins/funding'
import { moonpay } from 'portico/plugins/moonpay'
import { coinbaseOnramp } from 'portico/plugins/coinbase-onramp'
import { bridge } from 'portico/plugins/bridge'
import { mount } from './host'

mount([
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
  hcaptcha(),
  phantom(),
  walletconnect(),
  coinbaseWallet(),
  mfa(),
  mfaTotp(),
  mfaSms(),
  mfaPasskey(),
  embeddedWallet(),
  walletExport(),
  delegatedActions(),
  approvals(),
  funding(),
  moonpay(),
  coinbaseOnramp(),
  bridge(),
])
