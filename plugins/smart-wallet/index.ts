/**
 * portico/plugins/smart-wallet — smart wallets (issue 29): for the user's embedded Ethereum
 * wallet, an ERC-4337 smart account whose owner is that wallet (its key never leaves the
 * wallet frame), created counterfactually and deployed by its first user operation, linked to
 * the user (`POST /siwe/link_smart_wallet`, a SIWE message the smart account signs: ERC-6492
 * before deployment, ERC-1271 after), with gas sponsored by the app's paymaster (ERC-7677) when
 * the policy allows it.
 *
 * ```ts
 * createPortico({ appId, plugins: [email(), embeddedWallet(), approvals(), smartWallet()] })
 * const client = await kernel.plugin('smart-wallet').getClient()
 * await client.sendTransaction({ to, data })            // the approval screen, then the receipt
 * await client.sendTransaction({ calls: [a, b] })       // one user operation, batched
 * const provider = client.getEthereumProvider()         // EIP-1193 for viem / wagmi
 * ```
 * The app's config (`GET /apps/{appId}/smart_wallets`) chooses the account kind and the
 * networks. The entry is small: permissionless and viem's account abstraction load with the
 * client (./client.ts), on first use.
 */
import { definePlugin, normaliseFields, PorticoError, type PorticoPlugin, type User } from 'portico'
import type { SmartWalletClient, SmartWalletContracts } from './client'
import { SMART_WALLET_TEXTS, type SmartWalletTexts } from './strings'

export type { SmartWalletClient, SmartWalletContracts, SmartWalletCall, SmartWalletTransaction } from './client'
export type { AuthorizePayload, AuthorizeReply, WireAuthorization } from './protocol'
export { EIP7702_IMPLEMENTATIONS } from './protocol'
export type { SmartWalletTexts }
export { useSmartWallets } from './react'

export const SMART_WALLET = 'smart-wallet'

/** `GET /apps/{appId}/smart_wallets`, as the client reads it. */
export interface SmartWalletConfig {
  enabled: boolean
  type: string | null
  version: string | null
  networks: { chainId: number; bundlerUrl: string; paymasterUrl: string | null; paymasterContext: Record<string, unknown> | null }[]
}

export interface SmartWalletState {
  /** off: not enabled or no embedded Ethereum wallet; creating: computing and linking; ready. */
  status: 'off' | 'creating' | 'ready' | 'error'
  address: string | null
  error: string | null
}

export interface SmartWalletOptions {
  /**
   * Contract addresses for chains where the account kind is not at its canonical addresses (a
   * local chain): `{ 31337: { safe: { safeProxyFactoryAddress, … } } }` (permissionless's names).
   */
  contracts?: Record<number, SmartWalletContracts>
  /** Compute and link the smart account when the user has an embedded Ethereum wallet (default true). */
  linkOnLogin?: boolean
  /**
   * EIP-7702 instead of a separate smart account: the embedded wallet's own address is upgraded
   * in place to Simple7702Account (EntryPoint v0.8) and its calls go as user operations,
   * sponsored by the app's paymaster when the policy allows. The first send asks the user to
   * approve the upgrade on the wallet service's own page ('Upgrade your wallet'); the
   * authorisation is signed there only. Nothing is linked: the address is the embedded wallet's.
   */
  eip7702?: boolean
}

export interface SmartWalletApi {
  readonly state: import('portico').Store<SmartWalletState>
  /** The app's smart-wallet config (fetched once per session). */
  config(): Promise<SmartWalletConfig>
  /** The smart account's client on `chainId` (default: the config's first network); creates and links the account first. */
  getClient(options?: { chainId?: number }): Promise<SmartWalletClient>
}

declare module 'portico' {
  interface PluginApis {
    'smart-wallet': SmartWalletApi
  }
  interface UserFields {
    /** The user's smart wallet (spec part 1: `user.smartWallet`). */
    smartWallet?: import('portico').SmartWalletAccount
  }
}

interface WireConfig {
  enabled?: boolean
  smart_wallet_type?: string
  smart_wallet_version?: string
  configured_networks?: { chain_id: string; bundler_url: string; paymaster_url?: string | null; paymaster_context?: Record<string, unknown> | null }[]
}

export function parseSmartWalletConfig(w: WireConfig): SmartWalletConfig {
  return {
    enabled: w.enabled === true,
    type: w.smart_wallet_type ?? null,
    version: w.smart_wallet_version ?? null,
    networks: (w.configured_networks ?? []).map((n) => ({
      chainId: Number(String(n.chain_id).replace(/^eip155:/, '')),
      bundlerUrl: n.bundler_url,
      paymasterUrl: n.paymaster_url ?? null,
      paymasterContext: n.paymaster_context ?? null,
    })),
  }
}

/** The user's smart wallet address, when one is linked. */
export const linkedSmartWallet = (user: User | null | undefined): string | null =>
  (user?.linkedAccounts.find((a) => a.type === 'smart_wallet') as { address?: string | null } | undefined)?.address ?? null

export function smartWallet(options: SmartWalletOptions = {}): PorticoPlugin<'smart-wallet', SmartWalletTexts> {
  return definePlugin<'smart-wallet', SmartWalletTexts>({
    id: SMART_WALLET,
    kind: 'wallet',
    texts: () => Promise.resolve({ ...SMART_WALLET_TEXTS }),
    // EIP-7702's 'Upgrade your wallet' (the wallet service's authorisation page), loaded on use.
    screens: options.eip7702 ? { 'smart-wallet-authorize': () => import('./screens/authorize') } : {},
    setup(ctx) {
      // The `smart_wallet` account type: the wallet kit declares it when a wallet plugin is on;
      // otherwise this plugin does (the same descriptor: 'smart wallet', user.smartWallet).
      const undeclare = ctx.methods.get('smart_wallet')
        ? null
        : ctx.methods.declare({
            id: 'smart_wallet',
            displayName: SMART_WALLET_TEXTS.displayName,
            accountTypes: ['smart_wallet'],
            userField: 'smartWallet',
            normalise: (raw) => normaliseFields(raw, 'address:s smart_wallet_type:s'),
            linkMethods: [],
            remembered: false,
          })
      const state = ctx.store<SmartWalletState>({ status: 'off', address: null, error: null })
      let configP: Promise<SmartWalletConfig> | null = null
      const config = () =>
        (configP ??= ctx.api.get<WireConfig>(`/apps/${ctx.config.appId}/smart_wallets`).then(parseSmartWalletConfig, (e) => {
          configP = null
          throw e
        }))
      const clients = new Map<number, Promise<SmartWalletClient>>()
      const T = () => ctx.texts()

      async function getClient(o: { chainId?: number } = {}): Promise<SmartWalletClient> {
        const c = await config()
        if (!c.enabled) throw new PorticoError('smart_wallets_not_enabled', T().notEnabled, { kind: 'client_error' })
        const network = o.chainId === undefined ? c.networks[0] : c.networks.find((n) => n.chainId === o.chainId)
        if (!network) throw new PorticoError('smart_wallet_chain_not_configured', ctx.format(T().chainNotConfigured, { chainId: o.chainId ?? '' }), { kind: 'client_error' })
        let p = clients.get(network.chainId)
        if (!p) {
          p = import('./client').then((m) => m.createSmartWalletClient(ctx, { config: c, network, contracts: options.contracts?.[network.chainId], state, texts: T, eip7702: options.eip7702 === true }))
          p.catch(() => clients.delete(network.chainId))
          clients.set(network.chainId, p)
        }
        return p
      }

      const embeddedEthereum = () => (ctx.plugin('embedded-wallet')?.ethereumWallets() ?? []).some((w) => w.walletIndex === 0 && !w.imported)
      let linking: Promise<unknown> | null = null
      const maybeLink = () => {
        if (options.linkOnLogin === false || linking || !ctx.session.authenticated || !embeddedEthereum()) return
        linking = config()
          .then(async (c) => {
            if (!c.enabled || !c.networks.length) return
            const client = await getClient()
            await client.link()
          })
          .catch((e: unknown) => state.set({ error: e instanceof Error ? e.message : String(e), status: 'error' }))
          .finally(() => (linking = null))
      }
      const onLogout = () => {
        clients.clear()
        configP = null
        state.set({ status: 'off', address: null, error: null })
      }
      ctx.events.on('user', maybeLink)
      ctx.events.on('ready', maybeLink)
      ctx.events.on('logout', onLogout)
      if (ctx.isReady) maybeLink()
      ctx.provide<SmartWalletApi>({ state, config, getClient })
      return () => {
        undeclare?.()
        ctx.events.off('user', maybeLink)
        ctx.events.off('ready', maybeLink)
        ctx.events.off('logout', onLogout)
      }
    },
  })
}
