/**
 * Demo settings from the page URL, so tests and people can try every configuration:
 *   ?app=<25-char app id>      one of examples/server/apps.json (default: the demo app)
 *   &api=http://127.0.0.1:8787 the reference server
 *   &layout=list|groups        single list with 'More options', or web2/web3 groups
 *   &theme=dark|light  &accent=%23e4572e  &header=...  &message=...  &hideInputs=1
 *   &methods=email,sms,wallet  (enabled methods, in order)  &priority=web3-first
 *   &chains=ethereum-only|solana-only|app  (external wallets; default ethereum-and-solana; app: the app's setting)
 *   &wallets=metamask,phantom,detected_wallets  (appearance.walletList, in order)
 *   &oauth=popup  (OAuth providers in a popup; default redirect)  &noSignup=1  (OAuth 'no-signup')
 *   &frame=http://127.0.0.1:8788  the wallet frame's origin  &rpc=http://127.0.0.1:8545  the local EVM chain
 *   &createOnLogin=off|all-users|users-without-wallets  (default: the app's setting; `npm start` turns it on)
 *   &createdMs=2500  how long the wallet-created screen stays
 *   &wcRelay=ws://127.0.0.1:8798  (WalletConnect relay; read in ./plugins.ts)  &wc=0  (WalletConnect off)  &wcVerify=1  (its Verify API on)
 */
import type { PorticoConfig } from 'portico'
import type { OAuthOptions } from 'portico/kits/oauth'
import type { EmbeddedWalletSettings } from 'portico/plugins/embedded-wallet'

export const DEMO_APP_ID = 'portico-demo-app-00000001'
// `npm start` builds the demo with the API's and the frame's public URLs (scripts/demo-config.mjs:
// http://localhost, the app's own site; 127.0.0.1 with --cross-site); a build without them
// (tests pass ?api= and ?frame=) falls back to the reference server's own addresses.
export const DEFAULT_API = import.meta.env?.VITE_PORTICO_API_URL || 'http://127.0.0.1:8787'

export const DEFAULT_FRAME = import.meta.env?.VITE_PORTICO_FRAME_URL || 'http://127.0.0.1:8788'
export const DEFAULT_RPC = 'http://127.0.0.1:8545'

/** The demo's embedded wallet settings: frame origin, local chain RPC, creation on login. */
export interface DemoWalletSettings extends Pick<EmbeddedWalletSettings, 'frameUrl' | 'createOnLogin' | 'createdScreenMs'> {
  rpc: string
}

export function settingsFromUrl(search: string): {
  appId: string
  config: Omit<PorticoConfig, 'appId' | 'plugins'>
  oauth: OAuthOptions
  wallet: DemoWalletSettings
} {
  const q = new URLSearchParams(search)
  const appearance: NonNullable<PorticoConfig['appearance']> = {}
  const theme = q.get('theme')
  if (theme === 'dark' || theme === 'light') appearance.theme = theme
  if (q.get('accent')) appearance.accentColor = q.get('accent')!
  if (q.get('header')) appearance.landingHeader = q.get('header')!
  if (q.get('message')) appearance.loginMessage = q.get('message')!
  if (q.get('logo')) appearance.logo = q.get('logo')!
  if (q.get('hideInputs') === '1') appearance.hideDirectWeb2Inputs = true
  // External wallets: both chains by default in the demo (siwe + siws); ?chains=ethereum-only|solana-only,
  // or ?chains=app for the app's own setting (its wallet_chain_type from the server).
  const chains = q.get('chains')
  if (chains !== 'app') appearance.walletChainType = chains === 'ethereum-only' || chains === 'solana-only' ? chains : 'ethereum-and-solana'
  const wallets = q.get('wallets')?.split(',').filter(Boolean)
  if (wallets?.length) appearance.walletList = wallets
  const priority = q.get('priority')
  if (priority === 'web3-first' || priority === 'web2-first') appearance.loginGroupPriority = priority
  const config: Omit<PorticoConfig, 'appId' | 'plugins'> = { apiUrl: q.get('api') ?? DEFAULT_API, appearance }
  // WalletConnect (the walletconnect plugin) is on unless ?wc=0.
  config.externalWallets = { walletConnect: { enabled: q.get('wc') !== '0' } }
  const methods = q.get('methods')?.split(',').filter(Boolean)
  const layout = q.get('layout')
  if (layout === 'list') {
    const list = methods ?? ['email', 'sms', 'wallet', 'guest']
    const primary = list.slice(0, Number(q.get('primary') ?? 3))
    config.loginMethodsAndOrder = { primary, overflow: list.slice(primary.length) }
  } else if (methods) config.loginMethods = methods
  if (layout === 'groups') config.loginMethodsAndOrder = null
  const oauth: OAuthOptions = { mode: q.get('oauth') === 'popup' ? 'popup' : 'redirect', disableSignup: q.get('noSignup') === '1' }
  const mode = q.get('createOnLogin') ?? import.meta.env?.VITE_PORTICO_CREATE_ON_LOGIN
  const wallet: DemoWalletSettings = {
    frameUrl: q.get('frame') ?? DEFAULT_FRAME,
    rpc: q.get('rpc') ?? DEFAULT_RPC,
    createOnLogin: mode === 'off' || mode === 'all-users' || mode === 'users-without-wallets' ? mode : undefined,
    // Tests hold the created screen longer to check it (&createdMs=10000).
    createdScreenMs: q.get('createdMs') ? Number(q.get('createdMs')) : undefined,
  }
  return { appId: q.get('app') ?? DEMO_APP_ID, config, oauth, wallet }
}
