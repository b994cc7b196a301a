/**
 * portico/plugins/siwe — log in with an external Ethereum wallet (Sign-In with Ethereum).
 *
 * ```ts
 * import { siwe } from 'portico/plugins/siwe'
 * createPortico({ appId, plugins: [siwe()] })
 * ```
 *
 * Wallets are found through EIP-6963 announcements, with `window.ethereum` as fallback. The
 * plugin builds on the wallet base (`portico/kits/wallet`: the 'Wallet' landing entry, the
 * wallet list and awaiting-connection screens, shared with `siws`) and publishes one login
 * connector per wallet through the `walletConnectors` hook. viem and the EIP-4361 message
 * builder load only when the user picks a wallet.
 */
import { definePlugin, type Portico, type PorticoPlugin, type User } from 'portico'
import { needsSignButton, setupSignInWallets, type SignInWalletsApi, type SignPrompt, type WalletLoginConnector } from 'portico/kits/wallet'
import { createEthereumConnector } from './connector'
import { createEip6963Discovery, type Eip1193Provider } from './eip6963'
import type { SiweMessageInput } from './message'
import type { EthereumConnectorOptions } from './connector'
import { SIWE_TEXTS } from './strings'

// The API calls (./calls.ts) load on use.
const calls = () => import('./calls')
const siweCalls = () => calls().then((m) => ({ transfer: m.transferSiwe, unlink: m.unlinkSiwe }))

export interface SiweOptions {
  /** When to wait for 'Sign with your wallet' before the signature: 'auto', 'button', 'mobile' (default). */
  signPrompt?: SignPrompt
  /** Refuse new users (mode 'no-signup'). Default false. */
  disableSignup?: boolean
  /** Wallet request time-out in ms. Default 120000 (spec part 1 section 9). */
  requestTimeoutMs?: number
  /** How long to wait for wallets to announce themselves. Default 3000 ms. */
  detectionTimeoutMs?: number
  /** The statement of the sign-in message. Default: `SIWE_TEXTS.statement` (overridable with `texts.siwe`). */
  statement?: string
  /** Where to listen for EIP-6963 announcements (default: the page's window). Tests pass their own. */
  target?: Window
}

/**
 * What `kernel.plugin('siwe')` / `usePlugin('siwe')` return: `connectors()`, the announced
 * Ethereum wallets as login connectors (whatever the app's chains); `unlink(address)`, unlink an
 * Ethereum wallet (POST /siwe/unlink) and update the user record.
 */
export type SiweApi = SignInWalletsApi

/** The plugin's state: the login connectors of the announced wallets. */
export interface SiweState {
  wallets: WalletLoginConnector[]
}

declare module 'portico' {
  interface PluginApis {
    siwe: SiweApi
  }
}

export function siwe(options: SiweOptions = {}): PorticoPlugin<'siwe'> {
  return definePlugin({
    id: 'siwe',
    kind: 'login',
    setup(ctx) {
      const target = options.target ?? (typeof window !== 'undefined' ? window : undefined)
      const discovery = target ? createEip6963Discovery(target, { detectionTimeoutMs: options.detectionTimeoutMs }) : null
      // The wallets connected before, reconnected silently after a reload (connector.ts).
      const REMEMBERED = 'connected'
      const readRemembered = (): string[] => {
        try {
          const v = JSON.parse(ctx.storage.get(REMEMBERED) ?? '[]')
          return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []
        } catch {
          return []
        }
      }
      const writeRemembered = (ids: string[]) => ctx.storage.set(REMEMBERED, ids.length ? JSON.stringify(ids) : null)
      const remembered = {
        has: (id: string) => readRemembered().includes(id),
        add: (id: string) => {
          const ids = readRemembered()
          if (!ids.includes(id)) writeRemembered([...ids, id])
        },
        remove: (id: string) => writeRemembered(readRemembered().filter((x) => x !== id)),
      }
      return setupSignInWallets(ctx, {
        method: 'siwe',
        chain: 'ethereum',
        calls: siweCalls,
        source: discovery,
        list: () => discovery!.providers(),
        key: (d) => d.provider,
        connector: (d) =>
          createEthereumConnector(d, ctx, {
            mode: () => (options.disableSignup ? 'no-signup' : 'login-or-sign-up'),
            requestTimeoutMs: options.requestTimeoutMs,
            statement: () => options.statement ?? ctx.texts(SIWE_TEXTS).statement,
            confirmSign: needsSignButton(options.signPrompt),
            chains: () => ({
              supported: ctx.config.supportedChains.map((c) => c.id),
              defaultId: ctx.config.defaultChain.id,
            }),
            remembered,
          }),
      })
    },
  })
}

/**
 * Unlink an Ethereum wallet from the logged-in user (POST /siwe/unlink) and update the user
 * record. Resolves with the new user. Same as `kernel.plugin('siwe').unlink(address)`.
 */
export async function unlinkEthereumWallet(kernel: Pick<Portico, 'api' | 'session'>, address: string): Promise<User> {
  const res = await (await calls()).unlinkSiwe(kernel.api, { address })
  return kernel.session.setUser(res.user)
}

/**
 * The SIWE sign-in over any EIP-1193 provider (eth_requestAccounts, chain switch, EIP-4361
 * message, personal_sign, /siwe/authenticate or /siwe/link), for other connector plugins
 * (Coinbase Wallet ...). Async: viem and the message builder load on first use.
 */
export async function createSiweSession(
  provider: Eip1193Provider,
  api: Portico['api'],
  options: EthereumConnectorOptions & { walletClientType: string; connectorType?: string },
) {
  return (await import('./ethereum')).createEthereumSession(provider, api, options)
}
export type { EthereumSession } from './ethereum'

/** The EIP-4361 message for these inputs. Async: the builder (with viem) loads on first use. */
export async function buildSiweMessage(input: SiweMessageInput): Promise<string> {
  return (await import('./message')).buildSiweMessage(input)
}

export type { SiweMessageInput } from './message'
export { SIWE_TEXTS } from './strings'
export { providerError } from './errors'
export { createEip6963Discovery } from './eip6963'
export type { Eip1193Provider, Eip6963ProviderInfo, Eip6963Discovery, DiscoveredProvider } from './eip6963'
export type { EthereumConnectorOptions } from './connector'
/** @deprecated moved to `portico/kits/wallet` (they unlink Ethereum and Solana wallets alike). */
export { unlinkWallet, useUnlinkWallet } from 'portico/kits/wallet'
