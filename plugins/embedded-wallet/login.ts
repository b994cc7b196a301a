/**
 * Creation on login (spec part 2 sections 2 and 4), once the entry decided that wallets are
 * missing and opened the 'Welcome' / 'All set!' screen: the creation, its 30 s wait, funding's prompt. Loaded lazily,
 * by the first login that creates a wallet.
 */
import type { AuthContext, PluginContext, Store } from 'portico'
import { EMBEDDED_WALLET } from './codes'
import type { ChainType } from './protocol'
import { EMBEDDED_WALLET_TEXTS } from './strings'
import type { EmbeddedWalletApi, EmbeddedWalletState } from './wallets'

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

export async function createOnLogin(
  ctx: PluginContext,
  auth: AuthContext,
  api: EmbeddedWalletApi,
  state: Store<EmbeddedWalletState>,
  missing: ChainType[],
  inModal: boolean,
  o: { waitMs: number; createdScreenMs: number; synced: () => void },
): Promise<void> {
  const T = () => ctx.texts(EMBEDDED_WALLET_TEXTS)
  try {
    await Promise.race([api.createWallets(missing), sleep(o.waitMs).then(() => Promise.reject(new Error(T().createTimedOut)))])
    state.set({ create: { status: 'created', isNewUser: auth.isNewUser, error: null } })
    o.synced()
    if (inModal) await sleep(o.createdScreenMs)
    // Funding's prompt after wallet creation (when the app's funding config asks; it opens after the login modal closes).
    const created = api.wallets().find((w) => w.chainType === 'ethereum') ?? api.wallets()[0]
    // A funding plugin without the prompt (or one that fails) never fails the wallet's creation.
    const funding = ctx.plugin<{ promptAfterWalletCreation?(w: typeof created): Promise<unknown> }>('funding')
    if (created && typeof funding?.promptAfterWalletCreation === 'function') {
      Promise.resolve()
        .then(() => funding.promptAfterWalletCreation!(created))
        .catch(() => {})
    }
  } catch (e) {
    const error = ctx.screens.resolveError(e, { method: EMBEDDED_WALLET })
    state.set({ create: { status: 'error', isNewUser: auth.isNewUser, error: e as never } })
    ctx.warn(`Embedded wallet creation on login failed: ${error.detail ?? (e as Error).message}`)
    // The failure stays on screen until the user closes it (the login itself succeeded).
    if (inModal) await new Promise<void>((resolve) => state.subscribe((s) => s.create.status !== 'error' && resolve()))
  } finally {
    if (state.get().create.status !== 'error') state.set({ create: { ...state.get().create, status: 'idle' } })
  }
}
