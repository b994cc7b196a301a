/**
 * The lazy half of an Ethereum connector (loaded when the user picks a wallet): viem's wallet
 * client over `custom(provider)`, eth_requestAccounts → POST /siwe/init → EIP-4361 message →
 * personal_sign → POST /siwe/authenticate (or /siwe/link).
 */
import { createWalletClient, custom, type Address } from 'viem'
import { PorticoError, type Api } from 'portico'
import {
  WALLET_CONNECT_CODES,
  loadWalletKit,
  pollAccounts,
  type ConnectionProgress,
  type WalletIntent,
  type WalletSignInResult,
} from 'portico/kits/wallet'
import { authenticateSiwe, initSiwe, linkSiwe } from './calls'
import type { EthereumConnectorOptions } from './connector'
import type { Eip1193Provider } from './eip6963'
import { buildSiweMessage } from './message'

export interface EthereumSession {
  connect(signal?: AbortSignal): Promise<string>
  signIn(address: string, intent: WalletIntent, signal?: AbortSignal, progress?: (c: ConnectionProgress) => void): Promise<WalletSignInResult>
}

export function createEthereumSession(
  provider: Eip1193Provider,
  api: Api,
  options: EthereumConnectorOptions & { walletClientType: string; connectorType?: string },
): EthereumSession {
  const client = createWalletClient({ transport: custom(provider, { retryCount: 0 }) })
  const { walletClientType, requestTimeoutMs: timeout } = options
  return {
    async connect(signal) {
      const { withWalletTimeout, WALLET_TEXTS } = await loadWalletKit()
      const addresses = await withWalletTimeout(client.requestAddresses(), timeout, signal)
      // Some wallets grant access before they report the account: poll eth_accounts
      // (10 attempts, 500 ms apart; spec part 1 section 9).
      const address =
        addresses?.[0] ??
        (await pollAccounts(() => provider.request({ method: 'eth_accounts' }) as Promise<string[]>, { signal }))
      if (!address) {
        throw new PorticoError(WALLET_CONNECT_CODES.noAddress, WALLET_TEXTS.unableToRetrieveAddress, {
          kind: 'connector_error',
          retryable: true,
        })
      }
      return address
    },
    async signIn(address, intent, signal, progress) {
      const { withWalletTimeout } = await loadWalletKit()
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
      const { nonce } = await initSiwe(api, { address }, signal)
      const message = buildSiweMessage({ address, chainId, nonce, statement: options.statement() })
      const signature = await withWalletTimeout(client.signMessage({ account: address as Address, message }), timeout, signal)
      const body = { message, signature, chainId: `eip155:${chainId}`, walletClientType, connectorType: options.connectorType ?? 'injected' }
      const response =
        intent === 'link'
          ? await linkSiwe(api, body, signal)
          : await authenticateSiwe(api, { ...body, mode: options.mode() }, signal)
      return { response, meta: { method: 'siwe', walletClientType, chainType: 'ethereum', intent } }
    },
  }
}
