/**
 * A wallet-standard Solana wallet as a login connector: standard:connect →
 * POST /siws/init → Sign-In With Solana message → solana:signMessage →
 * POST /siws/authenticate (or /siws/link).
 */
import { PorticoError, type PluginContext } from 'portico'
import {
  createConnectorStatus,
  pageOrigin,
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
import type {
  SolanaSignAndSendTransactionFeature,
  SolanaSignTransactionFeature,
  SolanaSignInFeature,
  SolanaSignMessageFeature,
  StandardConnectFeature,
  StandardWallet,
  StandardWalletAccount,
} from './wallet-standard'

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
  ctx: Pick<PluginContext, 'api'> & Partial<Pick<PluginContext, 'assertLoggedOut' | 'events' | 'id'>>,
  options: SolanaConnectorOptions,
): WalletLoginConnector {
  const walletClientType = walletClientTypeOf({ name: wallet.name, rdns: '' })
  const timeout = options.requestTimeoutMs
  const accounts = new Map<string, StandardWalletAccount>()
  const connectFeature = wallet.features['standard:connect'] as StandardConnectFeature
  const signFeature = wallet.features['solana:signMessage'] as SolanaSignMessageFeature | undefined
  const signInFeature = wallet.features['solana:signIn'] as SolanaSignInFeature | undefined
  const status = createConnectorStatus(ctx.events ?? null, ctx.id ?? 'siws')
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
    async solanaSignMessage(message) {
      const account = accounts.get(status.get().address ?? '')
      if (!account || !signFeature) throw new PorticoError(WALLET_CONNECT_CODES.unsupported, WALLET_TEXTS.unsupportedWallet, { kind: 'connector_error' })
      const [signed] = await withWalletTimeout(signFeature.signMessage({ account, message }), timeout)
      return signed.signature
    },
    async solanaSignAndSendTransaction(transaction, chain, send) {
      const account = accounts.get(status.get().address ?? '')
      const sendFeature = wallet.features['solana:signAndSendTransaction'] as SolanaSignAndSendTransactionFeature | undefined
      const signTxFeature = wallet.features['solana:signTransaction'] as SolanaSignTransactionFeature | undefined
      if (!account || (!sendFeature && !signTxFeature)) {
        throw new PorticoError(WALLET_CONNECT_CODES.unsupported, WALLET_TEXTS.unsupportedWallet, { kind: 'connector_error' })
      }
      // The wallet sends when it can (it picks its own RPC for `chain`); else it signs and the app sends.
      if (sendFeature) {
        const [out] = await withWalletTimeout(sendFeature.signAndSendTransaction({ account, transaction, chain, options: { commitment: 'confirmed' } }), timeout)
        return out.signature
      }
      if (!signTxFeature) throw new PorticoError(WALLET_CONNECT_CODES.unsupported, WALLET_TEXTS.unsupportedWallet, { kind: 'connector_error' })
      const [signed] = await withWalletTimeout(signTxFeature.signTransaction({ account, transaction, chain }), timeout)
      return send(signed.signedTransaction)
    },
    async disconnect() {
      const feature = wallet.features['standard:disconnect'] as { disconnect?: () => Promise<void> } | undefined
      await feature?.disconnect?.().catch(() => {})
      status.set({ connected: false })
    },
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
      status.set({ connected: true, address: account.address })
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
      let message: string
      let signature: Uint8Array | undefined
      if (signInFeature) {
        // solana:signIn: the wallet builds the SIWS message from these fields and signs it.
        const page = pageOrigin()
        const [out] = await withWalletTimeout(
          signInFeature.signIn({
            domain: page.host,
            address,
            statement: options.statement?.(),
            uri: page.origin,
            version: '1',
            chainId: chainName(account, wallet),
            nonce,
            issuedAt: new Date().toISOString(),
          }),
          timeout,
          signal,
        )
        message = new TextDecoder().decode(out?.signedMessage ?? new Uint8Array())
        signature = out?.signature
      } else {
        if (!signFeature) throw noSignatureError()
        message = buildSiwsMessage({ address, nonce, chainId: chainName(account, wallet), statement: options.statement?.() })
        const [signed] = await withWalletTimeout(signFeature.signMessage({ account, message: new TextEncoder().encode(message) }), timeout, signal)
        signature = signed?.signature
      }
      if (!signature) throw noSignatureError()
      const body = { message, signature: toBase64(signature), walletClientType, connectorType: 'solana_adapter' }
      const response =
        intent === 'link'
          ? await linkSiws(ctx.api, body, signal)
          : await authenticateSiws(ctx.api, { ...body, mode: options.mode() }, signal)
      return { response, meta: { method: 'siws', walletClientType, chainType: 'solana', intent } }
    },
  }
}
