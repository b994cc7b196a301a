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
  WALLET_REDIRECT_SCREEN,
  createConnectorStatus,
  mobilePlatform,
  pageUrl,
  setupWallet,
  walletChains,
  type WalletLoginConnector,
} from 'portico/kits/wallet'
import type { PhantomPending } from './deeplink'
import type { PhantomHost } from './flow'
import { DEFAULT_PHANTOM_URL, PENDING_TTL_MS, PHANTOM_CONNECTOR_ID, PHANTOM_PARAMS, RETURN_PARAMS } from './ids'
import { PHANTOM_TEXTS } from './strings'

export { RETURN_PARAMS, PHANTOM_PARAMS, PHANTOM_CONNECTOR_ID, DEFAULT_PHANTOM_URL, PENDING_TTL_MS } from './ids'

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
      // The flows (./flow.ts, with the cryptography) load on click or on the return.
      const lazy = () => import('./flow')
      const restore = store.get()
      if (restore?.address && restore.session) status.set({ connected: true, address: restore.address })

      const host: PhantomHost = {
        ctx,
        options,
        baseUrl,
        cluster,
        store,
        status,
        statement: () => options.statement ?? texts().statement,
        redirectLink: (step) =>
          pageUrl({ [RETURN_PARAMS.connector]: 'phantom', [RETURN_PARAMS.client]: 'phantom', [RETURN_PARAMS.step]: step }, [
            ...Object.values(RETURN_PARAMS),
            ...PHANTOM_PARAMS,
          ]),
        flowState: () => {
          const nav = ctx.screens.getState()
          const intent: 'login' | 'link' = nav.intent === 'link' ? 'link' : 'login'
          const connectOnly = nav.stack.some((s) => !!(s.params as { connectOnly?: boolean } | undefined)?.connectOnly)
          return { intent, connectOnly }
        },
        returned: null,
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
          return !host.returned
        },
        status: () => status.get(),
        async disconnect() {
          store.set(null)
          host.returned = null
          status.set({ connected: false })
        },
        async connect(signal) {
          const st = status.get()
          if (st.connected && st.address) return st.address
          return (await lazy()).connect(host, signal)
        },
        async signIn(address, intent, signal) {
          if (intent === 'login') ctx.assertLoggedOut()
          return (await lazy()).signIn(host, address, intent, signal)
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
          finish: async () => (await lazy()).finish(host, step, answer),
        }
      })

      ctx.provide<PhantomApi>({ connector: () => connector })
    },
  })
}

export { PHANTOM_TEXTS } from './strings'
export type { PhantomTexts } from './strings'
export { WALLET_REDIRECT_SCREEN }
