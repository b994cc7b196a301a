/**
 * A signature login plugin's wallets (siwe, siws, a third party's): joins the wallet kit with
 * its method, makes one login connector per wallet its source finds (once per wallet, kept in
 * the plugin's state `{ wallets }`), lists them through the kernel's `walletConnectors` hook
 * while the app shows its chain, and hands out `{ connectors(), unlink(address) }`.
 */
import type { PluginContext, User, WalletConnectorEntry } from 'portico'
import { signInMethod, type SignInWalletCalls } from './account'
import { setupWallet } from './base'
import { walletChains } from './chains'
import type { WalletLoginConnector } from './connection'
import { CONNECTORS_CHANGED } from './ids'

/** Where the wallets come from (EIP-6963 announcements, the wallet-standard registry ...). */
export interface WalletSource {
  /** Calls back when the wallets found change. */
  subscribe(listener: () => void): unknown
  destroy(): void
}

export interface SignInWalletsOptions<W> {
  /** The login method ('siwe', 'siws'). */
  method: string
  /** The chain whose wallets these are: listed only while the app's `walletChainType` shows it. */
  chain: 'ethereum' | 'solana'
  /** The method's transfer and unlink calls, loaded on first use. */
  calls: () => Promise<SignInWalletCalls>
  /** None without a window. */
  source: WalletSource | null
  /** The wallets the source has found now. */
  list(): W[]
  /** The same wallet from one list to the next (default: the item itself). */
  key?(wallet: W): unknown
  connector(wallet: W): WalletLoginConnector
}

/** What such a plugin hands out (`kernel.plugin('siwe')`). */
export interface SignInWalletsApi {
  /** The wallets found, as login connectors (whatever the app's chains). */
  connectors(): WalletLoginConnector[]
  /** Unlink a wallet of this method and update the user record. */
  unlink(address: string): Promise<User>
}

/** Sets it up inside the plugin's `setup`; returns the teardown. */
export function setupSignInWallets<W>(ctx: PluginContext, o: SignInWalletsOptions<W>): () => void {
  setupWallet(ctx, { method: o.method })
  ctx.methods.declare(signInMethod(o.method, o.calls))
  const state = ctx.store<{ wallets: WalletLoginConnector[] }>({ wallets: [] })
  const made = new Map<unknown, WalletLoginConnector>()
  const refresh = (notify: boolean) => {
    if (!o.source) return
    const wallets = o.list().map((w) => {
      const key = o.key ? o.key(w) : w
      let c = made.get(key)
      if (!c) made.set(key, (c = o.connector(w)))
      return c
    })
    state.set({ wallets })
    if (notify) ctx.events.emit(CONNECTORS_CHANGED, { plugin: ctx.id })
  }
  o.source?.subscribe(() => refresh(true))
  refresh(false)
  ctx.hooks.walletConnectors.tap(ctx.id, (list: WalletConnectorEntry[]) => {
    if (!walletChains(ctx.config.appearance.walletChainType).has(o.chain)) return list
    // A wallet may appear without an announcement (window.ethereum): look again when asked.
    if (o.source && o.list().length !== state.get().wallets.length) refresh(false)
    return [...list, ...state.get().wallets]
  })
  ctx.provide<SignInWalletsApi>({
    connectors: () => state.get().wallets,
    async unlink(address) {
      const res = await (await o.calls()).unlink(ctx.api, { address })
      return ctx.session.setUser(res.user)
    },
  })
  return () => {
    o.source?.destroy()
    made.clear()
  }
}
