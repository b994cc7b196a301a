/**
 * A wallet-standard Solana connector's flows, loaded when the user picks the wallet (or the
 * host signs with it): standard:connect, POST /siws/init → Sign-In With Solana message →
 * solana:signIn / solana:signMessage → POST /siws/authenticate (or /siws/link), and the
 * connected wallet's signing. The connector itself (./solana.ts) stays in the entry.
 */
import { PorticoError, type PluginContext } from 'portico'
import {
  loadWalletKit,
  pageOrigin,
  WALLET_CONNECT_CODES,
  type ConnectorStatusStore,
  type WalletIntent,
  type WalletSignInResult,
} from 'portico/kits/wallet'
import { authenticateSiws, initSiws, linkSiws } from './calls'
import { noSignatureError } from './errors'
import { buildSiwsMessage } from './message'
import type { SolanaConnectorOptions } from './solana'
import type {
  SolanaSignAndSendTransactionFeature,
  SolanaSignTransactionFeature,
  SolanaSignInFeature,
  SolanaSignMessageFeature,
  StandardConnectFeature,
  StandardWallet,
  StandardWalletAccount,
} from './wallet-standard'

/** One connector's state, held by the connector (./solana.ts). */
export interface SolanaConnection {
  wallet: StandardWallet
  ctx: Pick<PluginContext, 'api'> & Partial<Pick<PluginContext, 'assertLoggedOut' | 'events' | 'id'>>
  options: SolanaConnectorOptions
  walletClientType: string
  accounts: Map<string, StandardWalletAccount>
  status: ConnectorStatusStore
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

export async function solanaSignMessage(c: SolanaConnection, message: Uint8Array): Promise<Uint8Array> {
  const { withWalletTimeout, WALLET_TEXTS } = await loadWalletKit()
  const { wallet, accounts, status } = c
  const timeout = c.options.requestTimeoutMs
  const signFeature = wallet.features['solana:signMessage'] as SolanaSignMessageFeature | undefined
  const account = accounts.get(status.get().address ?? '')
  if (!account || !signFeature) throw new PorticoError(WALLET_CONNECT_CODES.unsupported, WALLET_TEXTS.unsupportedWallet, { kind: 'connector_error' })
  const [signed] = await withWalletTimeout(signFeature.signMessage({ account, message }), timeout)
  return signed.signature
}

export async function solanaSignAndSendTransaction(
  c: SolanaConnection,
  transaction: Uint8Array,
  chain: string,
  send: (signed: Uint8Array) => Promise<Uint8Array>,
): Promise<Uint8Array> {
  const { wallet, accounts, status } = c
  const { withWalletTimeout, WALLET_TEXTS } = await loadWalletKit()
  const timeout = c.options.requestTimeoutMs
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
}

export async function connect(c: SolanaConnection, signal?: AbortSignal): Promise<string> {
  const { withWalletTimeout, WALLET_TEXTS } = await loadWalletKit()
  const { wallet, accounts, status } = c
  const connectFeature = wallet.features['standard:connect'] as StandardConnectFeature
  const { accounts: list } = await withWalletTimeout(connectFeature.connect(), c.options.requestTimeoutMs, signal)
  const all = [...(list ?? []), ...wallet.accounts]
  const account = all.find((a) => a.chains?.some((ch: string) => ch.startsWith('solana:'))) ?? all[0]
  if (!account?.address) {
    throw new PorticoError(WALLET_CONNECT_CODES.noAddress, WALLET_TEXTS.unableToRetrieveAddress, {
      kind: 'connector_error',
      retryable: true,
    })
  }
  accounts.set(account.address, account)
  status.set({ connected: true, address: account.address })
  return account.address
}

export async function signIn(c: SolanaConnection, address: string, intent: WalletIntent, signal?: AbortSignal): Promise<WalletSignInResult> {
  const { withWalletTimeout, WALLET_TEXTS } = await loadWalletKit()
  const { wallet, accounts, ctx, options, walletClientType } = c
  const timeout = options.requestTimeoutMs
  const signFeature = wallet.features['solana:signMessage'] as SolanaSignMessageFeature | undefined
  const signInFeature = wallet.features['solana:signIn'] as SolanaSignInFeature | undefined
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
}
