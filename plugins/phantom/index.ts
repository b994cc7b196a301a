/**
 * portico/plugins/phantom — Phantom on phones without an extension: log in through Phantom's
 * deep links (Sign-In With Solana over Phantom's documented `connect` / `signMessage`
 * protocol, encrypted with an x25519 box).
 *
 * ```ts
 * import { siws } from 'portico/plugins/siws'
 * import { phantom } from 'portico/plugins/phantom'
 * createPortico({ appId, appearance: { walletChainType: 'solana-only' }, plugins: [siws(), phantom()] })
 * ```
 *
 * On a mobile browser where Phantom is not injected, the wallet list shows 'Phantom'; picking
 * it shows 'Redirecting to Phantom Mobile Wallet' and opens the app (after about 1 s, 'Go to
 * App Store' if nothing happened). Phantom sends the user back to this page with its answer
 * (connector and wallet client type in the address); the kernel's `returnPath` hook hands it
 * to this plugin and strips it from the address. 'Sign with your wallet' then opens Phantom
 * once more for the signature; the return finishes the login. A refusal shows 'Could not
 * connect with wallet' with 'Try again' and 'Cancel'. Where Phantom is injected (desktop
 * extension, Phantom's in-app browser) `siws` lists it through wallet-standard instead.
 * The cryptography (@noble/curves, @noble/ciphers, @scure/base) loads only on click or return.
 */
import { definePlugin, type PorticoPlugin, type WalletConnectorEntry } from 'portico'
import {
  WALLET_CONNECT_SCREEN,
  WALLET_FAILED_SCREEN,
  WALLET_REDIRECT_SCREEN,
  WALLET_TEXTS,
  WALLET_CONNECT_CODES,
  createConnectorStatus,
  mobilePlatform,
  navigateTo,
  pageOrigin,
  pageUrl,
  setupWallet,
  walletChains,
  type WalletLoginConnector,
  type WalletSignInResult,
} from 'portico/plugins/wallet'
import { PorticoError } from 'portico'
import { authenticateSiws, initSiws, linkSiws } from './calls'
import { phantomBadReturn, phantomReturnError } from './errors'
import type { PhantomPending } from './deeplink'
import { PHANTOM_TEXTS } from './strings'

/** Query parameters of the return address: ours (connector, wallet client type, step) and Phantom's. */
export const RETURN_PARAMS = {
  connector: 'portico_wallet_connector',
  client: 'portico_wallet_client',
  step: 'portico_wallet_step',
} as const
export const PHANTOM_PARAMS = ['phantom_encryption_public_key', 'nonce', 'data', 'errorCode', 'errorMessage'] as const

export const PHANTOM_CONNECTOR_ID = 'phantom:deeplink'
export const DEFAULT_PHANTOM_URL = 'https://phantom.app/ul/v1'
/** A pending deep-link session older than this is dropped. */
export const PENDING_TTL_MS = 15 * 60_000

export interface PhantomOptions {
  /** Phantom's deep-link base. Default 'https://phantom.app/ul/v1'. */
  baseUrl?: string
  /** 'mainnet-beta' (default), 'devnet' or 'testnet'. */
  cluster?: 'mainnet-beta' | 'devnet' | 'testnet'
  /** The app's URL Phantom shows (its metadata). Default: the page's origin. */
  appUrl?: string
  /** When to offer the deep link: 'auto' (default: a mobile browser without Phantom injected), 'always', 'never'. */
  mode?: 'auto' | 'always' | 'never'
  /** Refuse new users (mode 'no-signup'). */
  disableSignup?: boolean
  /** The SIWS statement. Default `PHANTOM_TEXTS.statement` (overridable with `texts.phantom`). */
  statement?: string
}

export interface PhantomApi {
  /** The deep-link connector (also in the wallet list when offered). */
  connector(): WalletLoginConnector
}

declare module 'portico' {
  interface PluginApis {
    phantom: PhantomApi
  }
}

function sessionStore(key: string) {
  const s = (globalThis as { sessionStorage?: Storage }).sessionStorage
  return {
    get(): PhantomPending | null {
      try {
        const raw = s?.getItem(key)
        if (!raw) return null
        const p = JSON.parse(raw) as PhantomPending
        if (typeof p?.secretKey !== 'string' || Date.now() - p.createdAt > PENDING_TTL_MS) return null
        return p
      } catch {
        return null
      }
    },
    set(p: PhantomPending | null) {
      try {
        if (p) s?.setItem(key, JSON.stringify(p))
        else s?.removeItem(key)
      } catch {
        /* storage refused: the return fails cleanly */
      }
    },
  }
}

function phantomInjected(): boolean {
  const w = globalThis as { phantom?: { solana?: { isPhantom?: boolean } } }
  return !!w.phantom?.solana?.isPhantom
}

export function phantom(options: PhantomOptions = {}): PorticoPlugin<'phantom'> {
  return definePlugin({
    id: 'phantom',
    kind: 'login',
    setup(ctx) {
      setupWallet(ctx, { method: 'siws' })
      const baseUrl = options.baseUrl ?? DEFAULT_PHANTOM_URL
      const cluster = options.cluster ?? 'mainnet-beta'
      const store = sessionStore(`portico:${ctx.config.appId}:phantom:deeplink`)
      const status = createConnectorStatus(ctx.events, ctx.id)
      const texts = () => ctx.texts(PHANTOM_TEXTS)
      const lazy = () => import('./deeplink')
      /** The signature Phantom returned, waiting for `signIn` (memory only). */
      let returned: { message: string; signature: Uint8Array; address: string } | null = null
      const restore = store.get()
      if (restore?.address && restore.session) status.set({ connected: true, address: restore.address })

      const redirectLink = (step: 'connect' | 'sign') =>
        pageUrl({ [RETURN_PARAMS.connector]: 'phantom', [RETURN_PARAMS.client]: 'phantom', [RETURN_PARAMS.step]: step }, [
          ...Object.values(RETURN_PARAMS),
          ...PHANTOM_PARAMS,
        ])
      const flowState = () => {
        const nav = ctx.screens.getState()
        const intent: 'login' | 'link' = nav.intent === 'link' ? 'link' : 'login'
        const connectOnly = nav.stack.some((s) => !!(s.params as { connectOnly?: boolean } | undefined)?.connectOnly)
        return { intent, connectOnly }
      }

      const connector: WalletLoginConnector = {
        id: PHANTOM_CONNECTOR_ID,
        get name() {
          return texts().name
        },
        chainType: 'solana',
        connectorType: 'phantom',
        walletClientType: 'phantom',
        login: true,
        method: 'siws',
        redirect: true,
        // Deep links open the app from the user's gesture: sign on 'Sign with your wallet',
        // unless Phantom already answered (the return of the signature).
        get confirmSign() {
          return !returned
        },
        status: () => status.get(),
        async disconnect() {
          store.set(null)
          returned = null
          status.set({ connected: false })
        },
        async connect(signal) {
          const st = status.get()
          if (st.connected && st.address) return st.address
          const m = await lazy()
          if (signal?.aborted) return new Promise<string>(() => {})
          const { intent, connectOnly } = flowState()
          const { url, pending } = m.connectLink(
            { baseUrl, appUrl: options.appUrl ?? pageOrigin().origin, cluster, redirectLink: redirectLink('connect') },
            { intent, connectOnly },
          )
          store.set(pending)
          navigateTo(url)
          // The page leaves for Phantom; the flow resumes on the return.
          return new Promise<string>(() => {})
        },
        async signIn(address, intent, signal): Promise<WalletSignInResult> {
          if (intent === 'login') ctx.assertLoggedOut()
          const mode = options.disableSignup ? 'no-signup' : 'login-or-sign-up'
          const meta = { method: 'siws', walletClientType: 'phantom', chainType: 'solana' as const, intent }
          if (returned && returned.address === address) {
            const { message, signature } = returned
            returned = null
            const m = await lazy()
            const body = { message, signature: m.toBase64(signature), walletClientType: 'phantom', connectorType: 'phantom' as const }
            const response = intent === 'link' ? await linkSiws(ctx.api, body, signal) : await authenticateSiws(ctx.api, { ...body, mode }, signal)
            return { response, meta }
          }
          const pending = store.get()
          if (!pending?.session || pending.address !== address) {
            status.set({ connected: false })
            throw new PorticoError(WALLET_CONNECT_CODES.noAddress, WALLET_TEXTS.unableToRetrieveAddress, { kind: 'connector_error', retryable: true })
          }
          const m = await lazy()
          const { nonce } = await initSiws(ctx.api, { address }, signal)
          const message = m.buildSiwsMessage({ address, nonce, chainId: cluster === 'mainnet-beta' ? 'mainnet' : cluster, statement: options.statement ?? texts().statement })
          const url = m.signMessageLink(baseUrl, redirectLink('sign'), pending, message)
          store.set({ ...pending, step: 'sign', intent, message })
          navigateTo(url)
          return new Promise<WalletSignInResult>(() => {})
        },
      }

      const offered = () => {
        if (status.get().connected) return true
        if (options.mode === 'never') return false
        if (options.mode === 'always') return true
        return mobilePlatform() !== null && !phantomInjected()
      }
      ctx.hooks.walletConnectors.tap(ctx.id, (list: WalletConnectorEntry[]) => {
        if (!walletChains(ctx.config.appearance.walletChainType).has('solana') || !offered()) return list
        return [...list, connector]
      })

      // The return from Phantom, claimed at start-up (the kernel strips these parameters).
      ctx.hooks.returnPath.tap(ctx.id, ({ url }) => {
        const q = url.searchParams
        if (q.get(RETURN_PARAMS.connector) !== 'phantom') return undefined
        const step = q.get(RETURN_PARAMS.step) === 'sign' ? 'sign' : 'connect'
        const answer = new URLSearchParams()
        for (const p of PHANTOM_PARAMS) {
          const v = q.get(p)
          if (v !== null) answer.set(p, v)
        }
        return {
          params: [...Object.values(RETURN_PARAMS), ...PHANTOM_PARAMS],
          finish: async () => {
            const pending = store.get()
            const intent = pending?.intent ?? 'login'
            const fail = (error: PorticoError) => {
              ctx.events.emit('error', error)
              void ctx.screens.open(WALLET_FAILED_SCREEN, { connectorId: PHANTOM_CONNECTOR_ID, connectOnly: pending?.connectOnly }, { intent })
            }
            if (answer.has('errorCode')) {
              if (step === 'connect') store.set(null)
              return fail(phantomReturnError(answer.get('errorCode'), answer.get('errorMessage')))
            }
            if (!pending || pending.step !== step) return fail(phantomBadReturn())
            const m = await lazy()
            try {
              if (step === 'connect') {
                const next = m.readConnect(answer, pending)
                store.set(next)
                status.set({ connected: true, address: next.address! })
              } else {
                const signature = m.readSignature(answer, pending)
                returned = { message: pending.message ?? '', signature, address: pending.address ?? '' }
                store.set({ ...pending, step: 'connect', message: undefined })
              }
            } catch {
              if (step === 'connect') store.set(null)
              return fail(phantomBadReturn())
            }
            void ctx.screens.open(WALLET_CONNECT_SCREEN, { connectorId: PHANTOM_CONNECTOR_ID, connectOnly: pending.connectOnly }, { intent })
          },
        }
      })

      ctx.provide<PhantomApi>({ connector: () => connector })
    },
  })
}

export { PHANTOM_TEXTS } from './strings'
export type { PhantomTexts } from './strings'
export { WALLET_REDIRECT_SCREEN }
