/**
 * A wallet-standard Solana wallet as a login connector: standard:connect →
 * POST /siws/init → Sign-In With Solana message → solana:signMessage →
 * POST /siws/authenticate (or /siws/link).
 */
import { PorticoError, type PluginContext } from 'portico'
import {
  walletClientTypeOf,
  withWalletTimeout,
  WALLET_CONNECT_CODES,
  WALLET_TEXTS,
  type WalletIntent,
  type WalletLoginConnector,
  type WalletSignInResult,
} from 'portico/plugins/wallet'
import { authenticateSiws, initSiws, linkSiws } from './calls'
import { noSignatureError } from './errors'
import { buildSiwsMessage } from './message'
import type { SolanaSignMessageFeature, StandardConnectFeature, StandardWallet, StandardWalletAccount } from './wallet-standard'

export interface SolanaConnectorOptions {
  mode: () => 'login-or-sign-up' | 'no-signup'
  requestTimeoutMs?: number
  /** Sign-in statement (read when signing: the app's texts may change). */
  statement?: () => string
  confirmSign?: boolean
}

/** Base64 of bytes (no dependency; browsers and Node 20 have btoa). */
export function toBase64(bytes: Uint8Array): string {
  let s = ''
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i])
  return btoa(s)
}

/** 'solana:mainnet' → 'mainnet'. */
function chainName(account: StandardWalletAccount | undefined, wallet: StandardWallet): string | undefined {
  const chain = [...(account?.chains ?? []), ...wallet.chains].find((c) => c.startsWith('solana:'))
  return chain?.slice('solana:'.length)
}

export function createSolanaConnector(
  wallet: StandardWallet,
  ctx: Pick<PluginContext, 'api'> & Partial<Pick<PluginContext, 'assertLoggedOut'>>,
  options: SolanaConnectorOptions,
): WalletLoginConnector {
  const walletClientType = walletClientTypeOf({ name: wallet.name, rdns: '' })
  const timeout = options.requestTimeoutMs
  const accounts = new Map<string, StandardWalletAccount>()
  const connectFeature = wallet.features['standard:connect'] as StandardConnectFeature
  const signFeature = wallet.features['solana:signMessage'] as SolanaSignMessageFeature

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
    async connect(signal) {
      const { accounts: list } = await withWalletTimeout(connectFeature.connect(), timeout, signal)
      const all = [...(list ?? []), ...wallet.accounts]
      const account = all.find((a) => a.chains?.some((c) => c.startsWith('solana:'))) ?? all[0]
      if (!account?.address) {
        throw new PorticoError(WALLET_CONNECT_CODES.noAddress, WALLET_TEXTS.unableToRetrieveAddress, {
          kind: 'connector_error',
          retryable: true,
        })
      }
      accounts.set(account.address, account)
      return account.address
    },
    async signIn(address: string, intent: WalletIntent, signal?: AbortSignal): Promise<WalletSignInResult> {
      if (intent === 'login') ctx.assertLoggedOut?.()
      const account = accounts.get(address) ?? wallet.accounts.find((a) => a.address === address)
      if (!account) {
        throw new PorticoError(WALLET_CONNECT_CODES.noAddress, WALLET_TEXTS.unableToRetrieveAddress, {
          kind: 'connector_error',
          retryable: true,
        })
      }
      const { nonce } = await initSiws(ctx.api, { address }, signal)
      const message = buildSiwsMessage({ address, nonce, chainId: chainName(account, wallet), statement: options.statement?.() })
      const [signed] = await withWalletTimeout(
        signFeature.signMessage({ account, message: new TextEncoder().encode(message) }),
        timeout,
        signal,
      )
      if (!signed?.signature) throw noSignatureError()
      const body = { message, signature: toBase64(signed.signature), walletClientType, connectorType: 'solana_adapter' }
      const response =
        intent === 'link'
          ? await linkSiws(ctx.api, body, signal)
          : await authenticateSiws(ctx.api, { ...body, mode: options.mode() }, signal)
      return { response, meta: { method: 'siws', walletClientType, chainType: 'solana', intent } }
    },
  }
}
