/**
 * Bench host: every built-in plugin, each with its default options, and only host code
 * (./host.tsx: the provider and a login button; no demo panels, unlike examples/app). Every
 * folder of plugins/ whose entry exports a plugin is here (test/bench/size.test.ts checks);
 * the bases (`code`, `oauth`, `wallet`, `captcha`) come in through their plugins. Both
 * captcha providers are on, as in the demo, though an app runs one. Built, never run.
 */
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
import { farcasterSigner } from 'portico/plugins/farcaster-signer'
import { approvals } from 'portico/plugins/approvals'
import { funding } from 'portico/plugins/funding'
import { moonpay } from 'portico/plugins/moonpay'
import { coinbaseOnramp } from 'portico/plugins/coinbase-onramp'
import { bridge } from 'portico/plugins/bridge'
import { smartWallet } from 'portico/plugins/smart-wallet'
import { identityPlugins } from './identity-plugins'
import { mount } from './host'

mount([
  ...identityPlugins(),
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
  farcasterSigner(),
  approvals(),
  funding(),
  moonpay(),
  coinbaseOnramp(),
  bridge(),
  smartWallet(),
])
