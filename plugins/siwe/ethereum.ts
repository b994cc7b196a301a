/**
 * An EIP-1193 provider as a login connector: viem's wallet client over `custom(provider)`,
 * eth_requestAccounts → POST /siwe/init → EIP-4361 message → personal_sign →
 * POST /siwe/authenticate (or /siwe/link) → the kernel's completeLogin.
 */
import type { Address } from 'viem'
import { PorticoError, type PluginContext } from 'portico'
import { siweAuthenticate, siweInit, siweLink } from './calls'
import type { ConnectionProgress, WalletIntent, WalletLoginConnector, WalletSignInResult } from './connector'
import type { DiscoveredProvider } from './eip6963'
import { walletClientTypeOf } from './eip6963'
import { WALLET_CONNECT_CODES, withWalletTimeout } from './errors'
import { buildSiweMessage } from './message'
import { WALLET_STRINGS } from './strings'
import type { WalletClientLike } from './wallet-client'

export interface EthereumConnectorOptions {
  /** 'no-signup' refuses new users. */
  mode: () => 'login-or-sign-up' | 'no-signup'
  /** Wallet request time-out in ms (default 120000). */
  requestTimeoutMs?: number
  /** Sign-in statement (default: the spec's wording). */
  statement?: string
  confirmSign?: boolean
  /** The app's chains: a wallet on another chain is asked to switch to the default one. */
  chains?: () => { supported: number[]; defaultId: number }
}

type Ctx = Pick<PluginContext, 'api'>

export function createEthereumConnector(d: DiscoveredProvider, ctx: Ctx, options: EthereumConnectorOptions): WalletLoginConnector {
  const walletClientType = walletClientTypeOf(d.info)
  // viem's client is made when the user picks this wallet, not when it is announced.
  let pending: Promise<WalletClientLike> | null = null
  const walletClient = () => (pending ??= import('./wallet-client').then((m) => m.makeWalletClient(d.provider)))
  const timeout = options.requestTimeoutMs

  return {
    id: d.source === 'eip6963' ? `eip6963:${d.info.rdns || d.info.uuid}` : 'injected',
    name: d.info.name,
    icon: d.info.icon || undefined,
    chainType: 'ethereum',
    connectorType: 'injected',
    walletClientType,
    login: true,
    confirmSign: options.confirmSign,
    provider: d.provider,
    rdns: d.info.rdns,
    async connect(signal) {
      const client = await walletClient()
      const addresses = await withWalletTimeout(client.requestAddresses(), timeout, signal)
      const address = addresses?.[0]
      if (!address) {
        throw new PorticoError(WALLET_CONNECT_CODES.noAddress, WALLET_STRINGS.unableToRetrieveAddress, {
          kind: 'connector_error',
          retryable: true,
        })
      }
      return address
    },
    async signIn(address: string, intent: WalletIntent, signal?: AbortSignal, progress?: (c: ConnectionProgress) => void): Promise<WalletSignInResult> {
      const client = await walletClient()
      let chainId = await withWalletTimeout(client.getChainId(), timeout, signal)
      const chains = options.chains?.()
      if (chains && !chains.supported.includes(chainId)) {
        // Spec part 1 section 4: switching_to_supported_chain. A wallet that cannot or will not
        // switch still signs in on its own chain: the signature does not depend on it.
        progress?.('switching_to_supported_chain')
        try {
          await withWalletTimeout(client.switchChain({ id: chains.defaultId }), timeout, signal)
          chainId = await withWalletTimeout(client.getChainId(), timeout, signal)
        } catch (e) {
          if (signal?.aborted) throw e
        }
        progress?.('connected')
      }
      const { nonce } = await siweInit(ctx.api, { address }, signal)
      const message = buildSiweMessage({ address, chainId, nonce, statement: options.statement })
      const signature = await withWalletTimeout(
        client.signMessage({ account: address as Address, message }),
        timeout,
        signal,
      )
      const body = {
        message,
        signature,
        chainId: `eip155:${chainId}`,
        walletClientType,
        connectorType: 'injected',
      }
      const response =
        intent === 'link'
          ? await siweLink(ctx.api, body, signal)
          : await siweAuthenticate(ctx.api, { ...body, mode: options.mode() }, signal)
      return { response, meta: { method: 'siwe', walletClientType, chainType: 'ethereum', intent } }
    },
  }
}
