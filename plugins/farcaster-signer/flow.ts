/**
 * Farcaster signers (spec part 1 sections 2, 9; part 2 sections 7, 8): the wallet frame derives
 * the signer's Ed25519 key (never leaving it), the server asks the Farcaster app to approve it
 * (a Signed Key Request by the app's own FID), the approval state is polled every 2 s for 5
 * minutes; 'approved' refreshes the user (its Farcaster account now has `signerPublicKey`).
 * Casts are signed in the frame: `makeCastAdd` builds the message for a hub.
 */
import { abortableSleep } from 'portico/kits/browser'
import { PorticoError, type PluginContext, type Store, type User } from 'portico'
import type { EmbeddedWallet } from 'portico/plugins/embedded-wallet'
import { farcasterSignerStatus, initFarcasterSigner, type FarcasterSignerReply } from './calls'
import { FARCASTER_SIGNER_TEXTS } from './strings'
import { FARCASTER_SIGNER, FARCASTER_SIGNER_POLL_MS, FARCASTER_SIGNER_SCREEN, FARCASTER_SIGNER_TIMEOUT_MS, type FarcasterSignerState } from './state'
import type { CastAddBody, FarcasterNetworkName } from './cast'

export interface SignerFlowOptions {
  signal?: AbortSignal
  pollMs?: number
  timeoutMs?: number
  /** Injectable clock (tests). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
  now?: () => number
}

/** What `kernel.plugin('farcaster-signer')` / `usePlugin('farcaster-signer')` return. */
export interface FarcasterSignerApi {
  readonly state: Store<FarcasterSignerState>
  /** Opens the awaiting-signer screen; resolves with the refreshed user once approved, rejects on 'Request rejected' / 'Connect failed' / closing. */
  requestFarcasterSigner(): Promise<User>
  /** The signer's Ed25519 public key (0x hex), made in the wallet frame. */
  getFarcasterSignerPublicKey(): Promise<string>
  /** Signs a Farcaster message hash in the wallet frame: the 64-byte Ed25519 signature. */
  signFarcasterMessage(hash: Uint8Array): Promise<Uint8Array>
  /**
   * Builds a CastAdd message (@farcaster/core, loaded on first use) for the user's fid, signed
   * in the frame: submit `Message.encode(message).finish()` to a hub's /v1/submitMessage.
   */
  makeCastAdd(body: CastAddBody, options?: { fid?: number; network?: FarcasterNetworkName }): Promise<import('@farcaster/core').Message>
  /** The approval flow the screen runs: init, then the state every 2 s (tests and custom screens). */
  run(options?: SignerFlowOptions): Promise<FarcasterSignerReply>
}

const defaultSleep = abortableSleep

const hex = (b: Uint8Array) => `0x${Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')}`
const bytes = (h: string) => Uint8Array.from(h.slice(2).match(/../g) ?? [], (x) => parseInt(x, 16))

/** The error a revoked request or the 5-minute time-out ends with (the screen shows its texts). */
export function signerError(kind: 'revoked' | 'failed', T = FARCASTER_SIGNER_TEXTS): PorticoError {
  return kind === 'revoked'
    ? new PorticoError('user_rejected', T.rejectedDetail, { kind: 'client_error', data: { provider: FARCASTER_SIGNER, title: T.rejectedTitle } })
    : new PorticoError('client_request_timeout', T.failedDetail, { kind: 'client_error', data: { provider: FARCASTER_SIGNER, title: T.failedTitle } })
}

export function createFarcasterSigner(ctx: PluginContext, state: Store<FarcasterSignerState>): FarcasterSignerApi {
  const T = () => ctx.texts(FARCASTER_SIGNER_TEXTS, 'farcaster-signer')
  /** The user's linked Farcaster account (read from the linked accounts: the farcaster plugin need not be on). */
  const farcasterAccount = () => ctx.session.user?.linkedAccounts.find((a) => a.type === 'farcaster') as { fid?: number; signerPublicKey?: string | null } | undefined

  /** The embedded wallet whose root holds the signer (the Ethereum wallet 0, else the first). */
  const walletAndToken = async () => {
    const ew = ctx.plugin('embedded-wallet')
    const token = await ctx.session.getAccessToken()
    if (!token || !ctx.session.user) throw new PorticoError('must_be_authenticated', T().mustBeAuthenticated, { kind: 'client_error', data: { provider: FARCASTER_SIGNER } })
    const all: EmbeddedWallet[] = ew?.wallets() ?? []
    const w = all.find((x) => x.chainType === 'ethereum' && x.walletIndex === 0) ?? all[0]
    if (!ew || !w) throw new PorticoError('invalid_data', T().needWallet, { kind: 'client_error', data: { provider: FARCASTER_SIGNER } })
    return { ew, w, token }
  }

  const frameCall = async <K extends 'farcaster:init-signer' | 'farcaster:sign'>(type: K, extra: K extends 'farcaster:sign' ? { hash: string } : Record<string, never>) => {
    const { ew, w, token } = await walletAndToken()
    const f = await ew.frame()
    const payload = { accessToken: token, entropyId: w.entropyId, entropyIdVerifier: w.entropyIdVerifier, ...extra }
    // The frame's 'farcaster init-signer' and 'sign' messages (spec part 2 section 7; the frame's
    // handlers/farcaster.ts): not in the embedded-wallet plugin's own message table.
    const request = f.request.bind(f) as unknown as (type: string, payload: unknown) => Promise<unknown>
    return request(type, payload) as Promise<K extends 'farcaster:sign' ? { publicKey: string; signature: string } : { publicKey: string }>
  }

  const getFarcasterSignerPublicKey = async () => {
    const { publicKey } = await frameCall('farcaster:init-signer', {})
    state.set({ publicKey })
    return publicKey
  }

  const signFarcasterMessage = async (hash: Uint8Array) => {
    if (!(hash instanceof Uint8Array) || hash.length < 1 || hash.length > 64) throw new PorticoError('invalid_data', 'hash: expected 1 to 64 bytes', { kind: 'client_error', data: { provider: FARCASTER_SIGNER } })
    return bytes((await frameCall('farcaster:sign', { hash: hex(hash) })).signature)
  }

  const run = async (o: SignerFlowOptions = {}): Promise<FarcasterSignerReply> => {
    const sleep = o.sleep ?? defaultSleep
    const now = o.now ?? Date.now
    const pollMs = o.pollMs ?? FARCASTER_SIGNER_POLL_MS
    const deadline = now() + (o.timeoutMs ?? FARCASTER_SIGNER_TIMEOUT_MS)
    if (!farcasterAccount()) throw new PorticoError('invalid_data', T().needFarcaster, { kind: 'client_error', data: { provider: FARCASTER_SIGNER } })
    state.set({ status: 'starting', approvalUrl: null })
    const key = await getFarcasterSignerPublicKey()
    let r = await initFarcasterSigner(ctx.api, key, o.signal)
    for (;;) {
      if (r.status === 'approved') {
        await ctx.session.refreshUser()
        state.set({ status: 'approved', approvalUrl: null })
        return r
      }
      if (r.status === 'revoked') {
        state.set({ status: 'revoked', approvalUrl: null })
        throw signerError('revoked', T())
      }
      if (r.status === 'expired') {
        state.set({ status: 'failed', approvalUrl: null })
        throw signerError('failed', T())
      }
      if (r.signer_approval_url) state.set({ status: 'pending_approval', approvalUrl: r.signer_approval_url })
      if (now() >= deadline) break
      await sleep(Math.min(pollMs, Math.max(0, deadline - now())), o.signal)
      if (now() >= deadline) break
      r = await farcasterSignerStatus(ctx.api, key, o.signal)
    }
    state.set({ status: 'failed', approvalUrl: null })
    throw signerError('failed', T())
  }

  return {
    state,
    run,
    getFarcasterSignerPublicKey,
    signFarcasterMessage,
    async requestFarcasterSigner() {
      const res = await ctx.screens.open(FARCASTER_SIGNER_SCREEN, {})
      if (!res.ok) throw res.error
      const v = res.value as { error?: unknown } | undefined
      if (v && v.error) throw v.error
      if (!ctx.session.user) throw new PorticoError('must_be_authenticated', T().mustBeAuthenticated, { kind: 'client_error', data: { provider: FARCASTER_SIGNER } })
      if (!farcasterAccount()?.signerPublicKey) throw new PorticoError('user_rejected', 'The Farcaster signer was not approved.', { kind: 'client_error', data: { provider: FARCASTER_SIGNER } })
      return ctx.session.user
    },
    async makeCastAdd(body, options = {}) {
      const fid = options.fid ?? farcasterAccount()?.fid
      if (!fid) throw new PorticoError('invalid_data', T().needFarcaster, { kind: 'client_error', data: { provider: FARCASTER_SIGNER } })
      const { buildCastAdd } = await import('./cast')
      return buildCastAdd(body, { fid, network: options.network ?? 'mainnet' }, { publicKey: bytes(state.get().publicKey ?? (await getFarcasterSignerPublicKey())), sign: signFarcasterMessage })
    },
  }
}
