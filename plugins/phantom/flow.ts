/**
 * Phantom's deep-link flows, loaded on click or on the return (the entry claims the return
 * synchronously and keeps the connector's synchronous parts): the connect and sign-message
 * links, the sign-in with the returned signature, and the return's finish. The cryptography
 * (./deeplink.ts) loads with it.
 */
import { PorticoError, type PluginContext } from 'portico'
import {
  WALLET_CONNECT_CODES,
  WALLET_CONNECT_SCREEN,
  WALLET_FAILED_SCREEN,
  loadWalletKit,
  navigateTo,
  pageOrigin,
  type ConnectorStatusStore,
  type WalletIntent,
  type WalletSignInResult,
} from 'portico/kits/wallet'
import { authenticateSiws, initSiws, linkSiws } from './calls'
import * as m from './deeplink'
import type { PhantomPending } from './deeplink'
import { phantomBadReturn, phantomReturnError } from './errors'
import type { PhantomOptions } from './index'
import { PHANTOM_CONNECTOR_ID } from './ids'

/** What the entry holds for the flows: options, the pending session's store, the connector's status. */
export interface PhantomHost {
  ctx: PluginContext
  options: PhantomOptions
  baseUrl: string
  cluster: 'mainnet-beta' | 'devnet' | 'testnet'
  store: { get(): PhantomPending | null; set(p: PhantomPending | null): void }
  status: ConnectorStatusStore
  statement(): string
  redirectLink(step: 'connect' | 'sign'): string
  flowState(): { intent: 'login' | 'link'; connectOnly: boolean }
  /** The signature Phantom returned, waiting for `signIn` (memory only). */
  returned: { message: string; signature: Uint8Array; address: string } | null
}

export async function connect(h: PhantomHost, signal?: AbortSignal): Promise<string> {
  if (signal?.aborted) return new Promise<string>(() => {})
  const { intent, connectOnly } = h.flowState()
  const { url, pending } = m.connectLink(
    { baseUrl: h.baseUrl, appUrl: h.options.appUrl ?? pageOrigin().origin, cluster: h.cluster, redirectLink: h.redirectLink('connect') },
    { intent, connectOnly },
  )
  h.store.set(pending)
  navigateTo(url)
  // The page leaves for Phantom; the flow resumes on the return.
  return new Promise<string>(() => {})
}

export async function signIn(h: PhantomHost, address: string, intent: WalletIntent, signal?: AbortSignal): Promise<WalletSignInResult> {
  const { ctx, options, store, status } = h
  const mode = options.disableSignup ? 'no-signup' : 'login-or-sign-up'
  const meta = { method: 'siws', walletClientType: 'phantom', chainType: 'solana' as const, intent }
  const returned = h.returned
  if (returned && returned.address === address) {
    const { message, signature } = returned
    h.returned = null
    const body = { message, signature: m.toBase64(signature), walletClientType: 'phantom', connectorType: 'phantom' as const }
    const response = intent === 'link' ? await linkSiws(ctx.api, body, signal) : await authenticateSiws(ctx.api, { ...body, mode }, signal)
    return { response, meta }
  }
  const pending = store.get()
  if (!pending?.session || pending.address !== address) {
    status.set({ connected: false })
    const { WALLET_TEXTS } = await loadWalletKit()
    throw new PorticoError(WALLET_CONNECT_CODES.noAddress, WALLET_TEXTS.unableToRetrieveAddress, { kind: 'connector_error', retryable: true })
  }
  const { nonce } = await initSiws(ctx.api, { address }, signal)
  const message = m.buildSiwsMessage({ address, nonce, chainId: h.cluster === 'mainnet-beta' ? 'mainnet' : h.cluster, statement: h.statement() })
  const url = m.signMessageLink(h.baseUrl, h.redirectLink('sign'), pending, message)
  store.set({ ...pending, step: 'sign', intent, message })
  navigateTo(url)
  return new Promise<WalletSignInResult>(() => {})
}

/** The return from Phantom (claimed by the entry at start-up): read its answer, then the awaiting-connection screen. */
export async function finish(h: PhantomHost, step: 'connect' | 'sign', answer: URLSearchParams): Promise<void> {
  const { ctx, store, status } = h
  const { WALLET_TEXTS: S } = await loadWalletKit()
  const pending = store.get()
  const intent = pending?.intent ?? 'login'
  const fail = (error: PorticoError) => {
    ctx.events.emit('error', error)
    void ctx.screens.open(WALLET_FAILED_SCREEN, { connectorId: PHANTOM_CONNECTOR_ID, connectOnly: pending?.connectOnly }, { intent })
  }
  if (answer.has('errorCode')) {
    if (step === 'connect') store.set(null)
    return fail(phantomReturnError(answer.get('errorCode'), answer.get('errorMessage'), S))
  }
  if (!pending || pending.step !== step) return fail(phantomBadReturn(S))
  try {
    if (step === 'connect') {
      const next = m.readConnect(answer, pending)
      store.set(next)
      status.set({ connected: true, address: next.address! })
    } else {
      const signature = m.readSignature(answer, pending)
      h.returned = { message: pending.message ?? '', signature, address: pending.address ?? '' }
      store.set({ ...pending, step: 'connect', message: undefined })
    }
  } catch {
    if (step === 'connect') store.set(null)
    return fail(phantomBadReturn(S))
  }
  void ctx.screens.open(WALLET_CONNECT_SCREEN, { connectorId: PHANTOM_CONNECTOR_ID, connectOnly: pending.connectOnly }, { intent })
}
