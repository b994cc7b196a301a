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
 * | turnstile | captcha (apps with captcha on) | on (hcaptcha instead with `?captcha=hcaptcha`) |
 * | farcaster | farcaster (app portico-test-farcaster-01) | on |
 * | cross-app | cross_app (apps portico-test-xrequest-001 → portico-test-xprovider-01); /oauth/transact page | on |
 * | mfa, mfa-totp, mfa-sms, mfa-passkey | (no landing entry) 'MFA' and 'Sensitive action' buttons; app portico-test-mfa-00000001 | on |
 * | embedded-wallet | (no login method) wallets on login, wallet panel (`?frame=`, `?rpc=`, `?createOnLogin=`) | on |
 * | funding, moonpay, coinbase-onramp, bridge | funding methods (app funding_config; stand-ins in npm start; `?evmRpc=`) | on |
 * | walletconnect | wallet (the 'WalletConnect' row; relay stand-in ws://127.0.0.1:8798, `?wcRelay=` overrides) | on |
 * | phantom | wallet (Phantom deep links on mobile browsers without Phantom) | on |
 * | coinbase-wallet | wallet (Coinbase Wallet SDK) | `?coinbase=1` |
 * | wallet-export, delegated-actions | (no landing entry) 'Transfer wallet', 'Enable offline access' for embedded wallets | on |
 * | farcaster-signer | (no landing entry) `portico.plugin('farcaster-signer').requestFarcasterSigner()` (app portico-test-farcaster-01; client API stand-in 8799) | on |
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
import type { OAuthOptions } from 'portico/kits/oauth'
import { passkey } from 'portico/plugins/passkey'
import { telegram } from 'portico/plugins/telegram'
import { turnstile } from 'portico/plugins/turnstile'
import { hcaptcha } from 'portico/plugins/hcaptcha'
import { farcaster } from 'portico/plugins/farcaster'
import { crossApp } from 'portico/plugins/cross-app'
import { phantom } from 'portico/plugins/phantom'
import { coinbaseWallet } from 'portico/plugins/coinbase-wallet'
import { mfa } from 'portico/plugins/mfa'
import { mfaTotp } from 'portico/plugins/mfa-totp'
import { mfaSms } from 'portico/plugins/mfa-sms'
import { mfaPasskey } from 'portico/plugins/mfa-passkey'
import { embeddedWallet } from 'portico/plugins/embedded-wallet'
import { smartWallet } from 'portico/plugins/smart-wallet'
import { withApprovalsDemo } from './approvals-settings'
import type { Chain } from 'viem'
import type { DemoWalletSettings } from './settings'
import { funding } from 'portico/plugins/funding'
import { moonpay } from 'portico/plugins/moonpay'
import { coinbaseOnramp } from 'portico/plugins/coinbase-onramp'
import { bridge } from 'portico/plugins/bridge'
import { LOCAL_EVM_RPC, localChain as fundingChain, localCluster } from './funding-demo'
import { walletconnect } from 'portico/plugins/walletconnect'
import { walletExport } from 'portico/plugins/wallet-export'
import { delegatedActions } from 'portico/plugins/delegated-actions'
import { farcasterSigner } from 'portico/plugins/farcaster-signer'
import { acmeId } from '../../custom-plugin/src/index' // third-party example: Acme ID (app portico-test-acmeid-00001)

const demoQuery = (name: string) => (typeof location !== 'undefined' ? new URLSearchParams(location.search).get(name) : null)

/** The local EVM chain `npm start` runs (hardhat, chain id 31337); a plain object keeps viem out of the initial load. */
function localChain(rpc: string): Chain {
  return { id: 31337, name: 'Hardhat', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpc] } } }
}

/**
 * `?sw=` holds the Safe contract addresses of the local chain (31337), as permissionless names
 * them; `?sw=1`: the ones `npm start`'s stack deploys (VITE_PORTICO_SAFE_CONTRACTS).
 */
function smartWalletDemo(): PorticoPlugin[] {
  const sw = demoQuery('sw')
  if (!sw) return []
  let safe: Record<string, unknown>
  try {
    safe = JSON.parse(sw === '1' ? (import.meta.env?.VITE_PORTICO_SAFE_CONTRACTS ?? '{}') : sw) as Record<string, unknown>
  } catch {
    return []
  }
  // ?sw7702=1: the embedded wallet upgraded in place (EIP-7702) instead of a separate Safe.
  return [smartWallet({ contracts: { 31337: { safe } }, eip7702: demoQuery('sw7702') === '1' })]
}

export function demoPlugins(oauth: OAuthOptions = {}, wallet?: DemoWalletSettings, extra: { coinbase?: boolean } = {}): PorticoPlugin[] {
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
    // ?captcha=hcaptcha: hCaptcha instead of Turnstile (test/e2e/hcaptcha.spec.ts).
    demoQuery('captcha') === 'hcaptcha' ? hcaptcha() : turnstile(),
    farcaster(),
    crossApp(),
    phantom(),
    // Coinbase Wallet (SDK: extension, app, smart wallet) with ?coinbase=1: its row is always
    // there when on (the SDK falls back to its popup), so the other specs keep their lists.
    ...(extra.coinbase ? [coinbaseWallet()] : []),
    // MFA: the base and one plugin per method; the enrolment callback reports to the demo page.
    mfa({ onEnrollmentSuccess: ({ method }) => window.dispatchEvent(new CustomEvent('portico-demo:mfa-enrolled', { detail: { method } })) }),
    mfaTotp(),
    mfaSms(),
    mfaPasskey(),
    embeddedWallet({
      frameUrl: wallet?.frameUrl,
      createOnLogin: wallet?.createOnLogin,
      createdScreenMs: wallet?.createdScreenMs,
      chains: [localChain(wallet?.rpc ?? 'http://127.0.0.1:8545')],
    }),
    // Requests without a chain or cluster fund on the local ones (hardhat, the SVM stand-in), not on mainnet.
    funding({ defaultChain: fundingChain(demoQuery('evmRpc') ?? LOCAL_EVM_RPC), solanaCluster: localCluster(demoQuery('svm') ?? 'http://127.0.0.1:8899') }),
    moonpay(),
    coinbaseOnramp(),
    // Solana as a bridge source reads the local SVM (`?svm=`, default the stand-in of npm start).
    bridge({ chains: [fundingChain(demoQuery('evmRpc') ?? LOCAL_EVM_RPC)], solanaSource: { rpcUrl: demoQuery('svm') ?? 'http://127.0.0.1:8899' } }),
    // WalletConnect through the local relay stand-in (npm start runs it on 8798); a demo
    // project id; no Verify API (closed network, strict CSP) unless ?wcVerify=1.
    walletconnect({
      projectId: 'portico-demo-walletconnect',
      relayUrl: demoQuery('wcRelay') || 'ws://127.0.0.1:8798',
      verify: demoQuery('wcVerify') === '1',
    }),
    walletExport(),
    delegatedActions(),
    // Smart wallets (issue 29) with ?sw=<contracts JSON>: the local chain's account contracts
    // (the ERC-4337 stack of npm start / the smart-wallet spec deploys them).
    ...smartWalletDemo(),
    farcasterSigner(),
    ...[google, apple, github, twitter, discord, linkedin, spotify, tiktok, instagram].map((provider) => provider(oauth)),
  ])
}
