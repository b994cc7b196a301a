/**
 * The connection state machine of the awaiting-connection screen (spec part 1 section 4:
 * connect, sign, retries) for one login connector. Loaded with the screen (or
 * `loadWalletKit()`), not with the wallet base's entry.
 */
import type { PorticoError } from 'portico'
import { type CompleteFn, type ConnectionState, type WalletConnection, type WalletIntent, type WalletLoginConnector, MAX_WALLET_RETRIES } from './base'
import { canRetry, toWalletError, type WalletPhase } from './errors'

/**
 * Drive one connector through connect → sign for a login or link. The awaiting-connection
 * screen renders its state; tests drive it directly.
 */
export function createWalletConnection(
  connector: WalletLoginConnector,
  intent: WalletIntent,
  complete: CompleteFn,
  hooks: {
    onError?: (e: PorticoError) => void
    /**
     * Wait for `sign()` after connecting instead of prompting for the signature at once (spec
     * part 1 section 4: on mobile some wallets need the user to press a button).
     */
    confirmSign?: boolean
    /** Connect only (no signature, no login): done once the wallet gave its account. */
    connectOnly?: boolean
  } = {},
): WalletConnection {
  let state: ConnectionState = {
    status: 'connecting',
    connection: 'disconnected',
    address: null,
    phase: 'connect',
    error: null,
    retriesUsed: 0,
    canRetry: false,
    result: null,
  }
  const listeners = new Set<(s: ConnectionState) => void>()
  let controller = new AbortController()
  let running: Promise<void> | null = null
  const set = (patch: Partial<ConnectionState>) => {
    state = { ...state, ...patch }
    state.canRetry = state.status === 'error' && !!state.error && canRetry(state.error, state.retriesUsed)
    for (const l of [...listeners]) l(state)
  }

  const run = async (gesture: boolean) => {
    const signal = controller.signal
    let phase: WalletPhase = state.address ? 'sign' : 'connect'
    try {
      let address = state.address
      if (!address) {
        set({ status: 'connecting', connection: 'connecting', phase, error: null })
        address = await connector.connect(signal)
        if (signal.aborted) return
      }
      if (hooks.connectOnly) {
        set({ status: 'done', connection: 'connected', address, phase: 'connect', error: null })
        return
      }
      if (hooks.confirmSign && !gesture) {
        set({ status: 'ready', connection: 'connected', address, phase: 'sign', error: null })
        return
      }
      phase = 'sign'
      set({ status: 'signing', connection: 'connected', address, phase, error: null })
      const signed = await connector.signIn(address, intent, signal, (connection) => {
        if (!signal.aborted) set({ connection })
      })
      if (signal.aborted) return
      const result = await complete(signed.response, signed.meta)
      set({ status: 'done', result })
    } catch (e) {
      if (signal.aborted) return
      const error = toWalletError(e, phase)
      // A connector that reports no accounts is disconnected (spec part 1 section 4).
      const patch: Partial<ConnectionState> =
        phase === 'connect' ? { connection: 'disconnected', address: null } : {}
      set({ status: 'error', phase, error, ...patch })
      hooks.onError?.(error)
    }
  }

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    start() {
      running ??= run(false).finally(() => (running = null))
      return running
    },
    async sign() {
      if (running || state.status !== 'ready') return false
      running = run(true).finally(() => (running = null))
      await running
      return true
    },
    async retry() {
      if (running || !state.canRetry) return false
      set({ retriesUsed: Math.min(state.retriesUsed + 1, MAX_WALLET_RETRIES) })
      controller = new AbortController()
      // Pressing Retry is the user's gesture: sign at once.
      running = run(true).finally(() => (running = null))
      await running
      return true
    },
    cancel() {
      controller.abort()
      listeners.clear()
    },
  }
}
