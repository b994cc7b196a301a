/**
 * The Sign In With Farcaster flow (spec part 1 section 9): open a channel, show its connect
 * URI (QR code on desktop, 'Open Warpcast app' on mobile), poll the status every 2 s until
 * it is completed (message, signature, fid), then log in (or link). Times out after 2 minutes.
 * Its state (what the screen shows) is the plugin's kernel store.
 */
import { abortableSleep } from 'portico/kits/browser'
import { PorticoError, type Api, type Intent, type Store, type WireAuthResponse, type WireUser } from 'portico'
import { authenticateFarcaster, getFarcasterStatus, initFarcaster, linkFarcaster, type FarcasterSignature, type LoginMode } from './calls'
import { farcasterTimeout } from './errors'
import type { FARCASTER_TEXTS } from './strings'
import { FARCASTER_POLL_MS, FARCASTER_TIMEOUT_MS, type FarcasterState } from './state'

export { FARCASTER_SCREEN, FARCASTER_POLL_MS, FARCASTER_TIMEOUT_MS, INITIAL_FARCASTER_STATE, type FarcasterStatusName, type FarcasterState } from './state'

export interface FarcasterFlowOptions {
  intent?: Intent
  mode?: LoginMode
  /** Captcha token for /farcaster/init. */
  token?: string
  signal?: AbortSignal
  pollMs?: number
  timeoutMs?: number
  texts?: typeof FARCASTER_TEXTS
  /** Injectable clock (tests). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
  now?: () => number
}

const defaultSleep = abortableSleep

/** Runs one sign-in: resolves with the server's answer to /authenticate (login) or /link (link). */
export async function runFarcaster(api: Api, store: Store<FarcasterState>, o: FarcasterFlowOptions = {}): Promise<WireAuthResponse | { user: WireUser }> {
  const sleep = o.sleep ?? defaultSleep
  const now = o.now ?? Date.now
  const pollMs = o.pollMs ?? FARCASTER_POLL_MS
  const deadline = now() + (o.timeoutMs ?? FARCASTER_TIMEOUT_MS)
  store.set({ status: 'waiting', connectUri: null })
  const channel = await initFarcaster(api, o.token ? { token: o.token } : {}, o.signal)
  store.set({ connectUri: channel.connect_uri })
  for (;;) {
    if (now() >= deadline) throw farcasterTimeout(o.texts)
    await sleep(Math.min(pollMs, Math.max(0, deadline - now())), o.signal)
    if (now() >= deadline) throw farcasterTimeout(o.texts)
    const st = await getFarcasterStatus(api, channel.channel_token, o.signal)
    if (st.state !== 'completed') continue
    if (!st.message || !st.signature || !st.fid) throw new PorticoError('invalid_credentials', o.texts?.failedTitle ?? 'Authentication failed')
    store.set({ status: 'verifying', connectUri: null })
    const sig: FarcasterSignature = { channel_token: channel.channel_token, message: st.message, signature: st.signature, fid: st.fid }
    return o.intent === 'link' ? linkFarcaster(api, sig) : authenticateFarcaster(api, { ...sig, ...(o.mode ? { mode: o.mode } : {}) })
  }
}

/** What `kernel.plugin('farcaster')` / `usePlugin('farcaster')` return. */
export interface FarcasterApi {
  readonly state: Store<FarcasterState>
  /** Run the channel flow and answer with the server's response (the screen completes it). */
  connect(options?: FarcasterFlowOptions): Promise<WireAuthResponse | { user: WireUser }>
}
