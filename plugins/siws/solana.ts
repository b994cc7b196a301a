/**
 * A wallet-standard Solana wallet as a login connector. Light: it names the wallet and follows
 * its accounts; the flows (standard:connect → POST /siws/init → Sign-In With Solana message →
 * solana:signMessage → POST /siws/authenticate or /siws/link, and signing) load from
 * ./solana-flow.ts when the user picks the wallet.
 */
import type { PluginContext } from 'portico'
import { createConnectorStatus, walletClientTypeOf, type WalletLoginConnector } from 'portico/kits/wallet'
import type { SolanaConnection } from './solana-flow'
import type { StandardWallet, StandardWalletAccount } from './wallet-standard'

export interface SolanaConnectorOptions {
  mode: () => 'login-or-sign-up' | 'no-signup'
  requestTimeoutMs?: number
  /** Sign-in statement (read when signing: the app's texts may change). */
  statement?: () => string
  confirmSign?: boolean
}

const flow = () => import('./solana-flow')

export function createSolanaConnector(
  wallet: StandardWallet,
  ctx: Pick<PluginContext, 'api'> & Partial<Pick<PluginContext, 'assertLoggedOut' | 'events' | 'id'>>,
  options: SolanaConnectorOptions,
): WalletLoginConnector {
  const walletClientType = walletClientTypeOf({ name: wallet.name, rdns: '' })
  const status = createConnectorStatus(ctx.events ?? null, ctx.id ?? 'siws')
  const c: SolanaConnection = { wallet, ctx, options, walletClientType, accounts: new Map<string, StandardWalletAccount>(), status }
  const onChange = (wallet.features['standard:events'] as { on?: (e: 'change', l: (p: { accounts?: readonly StandardWalletAccount[] }) => void) => () => void } | undefined)?.on
  // A wallet that reports no accounts is disconnected (spec part 1 section 4).
  onChange?.('change', (props) => {
    if (props.accounts && props.accounts.length === 0) status.set({ connected: false })
  })

  return {
    id: `wallet-standard:${wallet.name}`,
    name: wallet.name,
    icon: wallet.icon || undefined,
    chainType: 'solana',
    connectorType: 'solana_adapter',
    walletClientType,
    login: true,
    method: 'siws',
    confirmSign: options.confirmSign,
    wallet,
    status: () => status.get(),
    solanaSignMessage: async (message) => (await flow()).solanaSignMessage(c, message),
    solanaSignAndSendTransaction: async (transaction, chain, send) => (await flow()).solanaSignAndSendTransaction(c, transaction, chain, send),
    async disconnect() {
      const feature = wallet.features['standard:disconnect'] as { disconnect?: () => Promise<void> } | undefined
      await feature?.disconnect?.().catch(() => {})
      status.set({ connected: false })
    },
    connect: async (signal) => (await flow()).connect(c, signal),
    async signIn(address, intent, signal) {
      if (intent === 'login') ctx.assertLoggedOut?.()
      return (await flow()).signIn(c, address, intent, signal)
    },
  }
}
