/**
 * The host side of the wallet frame: a hidden iframe on the wallet service's origin, the
 * `ready` handshake, and requests with ids and time-outs. Replies are accepted only from the
 * frame's origin and its own window (`event.origin` and `event.source` both checked).
 */
import { PorticoError } from 'portico'
import { fromFrameError, walletError } from './errors'
import {
  FRAME_PROTOCOL,
  FRAME_READY_PING_MS,
  framePath,
  isFrameReply,
  type FrameData,
  type FramePayload,
  type FrameRequestMessage,
  type FrameRequestType,
  type FrameStorage,
} from './protocol'
import { EMBEDDED_WALLET_TEXTS } from './strings'

export interface FrameClientOptions {
  /** The wallet service's origin (e.g. `https://wallet.example.com` or `http://127.0.0.1:8788`). */
  frameUrl: string
  appId: string
  clientId?: string | null
  /** The window the iframe lives in (tests pass a fake). */
  window?: Window
  /** A fake frame for tests: what the iframe's contentWindow would be. */
  target?: FrameTarget
}

/** What the client talks to: an iframe's contentWindow, or a test double. */
export interface FrameTarget {
  postMessage(message: unknown, targetOrigin: string): void
}

export interface RequestOptions {
  /** Fails with `timeoutMessage` after this long (default: no limit). */
  timeoutMs?: number
  timeoutMessage?: string
  signal?: AbortSignal
}

interface Pending {
  resolve(v: unknown): void
  reject(e: unknown): void
  timer?: ReturnType<typeof setTimeout>
}

/** Whether embedded wallets may run on this page and frame: HTTPS, except localhost. */
export function isSecureEnough(url: string): boolean {
  try {
    const u = new URL(url)
    return u.protocol === 'https:' || u.hostname === 'localhost' || u.hostname === '127.0.0.1' || u.hostname === '[::1]'
  } catch {
    return false
  }
}

let seq = 0
const newId = () => {
  const r = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`
  return `${r}-${++seq}`
}

export class FrameClient {
  readonly origin: string
  readonly src: string
  private iframe: HTMLIFrameElement | null = null
  private target: FrameTarget | null
  private pending = new Map<string, Pending>()
  private readyPromise: Promise<void> | null = null
  /** What the frame's `ready` reported: where it keeps this device's shares (null: a frame that does not say). */
  storage: FrameStorage | null = null
  private win: Window | null
  private readonly onMessage = (event: MessageEvent) => this.receive(event)

  constructor(private opts: FrameClientOptions) {
    const base = new URL(opts.frameUrl)
    this.origin = base.origin
    this.src = `${this.origin}${framePath(opts.appId, { clientId: opts.clientId ?? undefined })}`
    this.win = opts.window ?? (typeof window !== 'undefined' ? window : null)
    this.target = opts.target ?? null
    this.win?.addEventListener('message', this.onMessage as EventListener)
  }

  /** The hidden iframe (created on first use). */
  mount(): void {
    if (this.target || !this.win) return
    const doc = this.win.document
    const f = doc.createElement('iframe')
    f.src = this.src
    f.title = 'Portico wallet'
    f.setAttribute('aria-hidden', 'true')
    f.tabIndex = -1
    f.hidden = true
    f.className = 'portico-wallet-frame'
    f.setAttribute('referrerpolicy', 'no-referrer')
    doc.body.appendChild(f)
    this.iframe = f
    this.target = f.contentWindow
  }

  /** Accepts a reply only from the frame's origin and window. */
  private receive(event: MessageEvent) {
    if (event.origin !== this.origin) return
    const expected = this.iframe ? this.iframe.contentWindow : this.target
    if (!expected || event.source !== (expected as unknown)) return
    const m = event.data
    if (!isFrameReply(m)) return
    const p = this.pending.get(m.id)
    if (!p) return
    this.pending.delete(m.id)
    if (p.timer) clearTimeout(p.timer)
    if ('error' in m) p.reject(fromFrameError(m.error))
    else p.resolve(m.data)
  }

  private post<T extends FrameRequestType>(id: string, type: T, payload: FramePayload<T>) {
    const message: FrameRequestMessage<T> = { protocol: FRAME_PROTOCOL, id, type, payload }
    const t = this.iframe ? this.iframe.contentWindow : this.target
    t?.postMessage(message, this.origin)
  }

  /** Loads the frame and waits until it answers `ready` (pings every 100 ms). */
  ready(timeoutMs: number): Promise<void> {
    if (this.readyPromise) return this.readyPromise
    this.mount()
    const id = newId()
    const p = new Promise<void>((resolve, reject) => {
      let ping: ReturnType<typeof setInterval> | undefined
      const done = (fn: () => void) => {
        if (ping) clearInterval(ping)
        fn()
      }
      const timer = setTimeout(() => {
        this.pending.delete(id)
        done(() => reject(walletError('UNKNOWN_EMBEDDED_WALLET_ERROR', EMBEDDED_WALLET_TEXTS.failedToConnect)))
      }, timeoutMs)
      const ready = (d: unknown) => {
        const s = (d as { storage?: unknown } | null)?.storage
        this.storage = s === 'session' || s === 'persistent' ? s : null
        resolve()
      }
      this.pending.set(id, { resolve: (d) => done(() => ready(d)), reject: (e) => done(() => reject(e)), timer })
      const send = () => this.post(id, 'ready', {})
      send()
      ping = setInterval(send, FRAME_READY_PING_MS)
      // The frame's script has run by its load event: ask at once instead of at the next ping.
      this.iframe?.addEventListener('load', send, { once: true })
    })
    this.readyPromise = p
    p.catch(() => {
      if (this.readyPromise === p) this.readyPromise = null
    })
    return p
  }

  /** One request; resolves with the frame's `data`, rejects with its `{ type, message }` as a PorticoError. */
  async request<T extends FrameRequestType>(type: T, payload: FramePayload<T>, options: RequestOptions = {}): Promise<FrameData<T>> {
    if (!this.readyPromise) throw walletError('UNKNOWN_EMBEDDED_WALLET_ERROR', EMBEDDED_WALLET_TEXTS.proxyMissing)
    await this.readyPromise
    const id = newId()
    return new Promise<FrameData<T>>((resolve, reject) => {
      const entry: Pending = { resolve: resolve as (v: unknown) => void, reject }
      if (options.timeoutMs) {
        entry.timer = setTimeout(() => {
          this.pending.delete(id)
          reject(walletError('UNKNOWN_EMBEDDED_WALLET_ERROR', options.timeoutMessage ?? EMBEDDED_WALLET_TEXTS.failedToConnect))
        }, options.timeoutMs)
      }
      options.signal?.addEventListener('abort', () => {
        if (!this.pending.delete(id)) return
        if (entry.timer) clearTimeout(entry.timer)
        reject(new PorticoError('request_aborted', 'The request was aborted.'))
      })
      this.pending.set(id, entry)
      this.post(id, type, payload)
    })
  }

  destroy(): void {
    this.win?.removeEventListener('message', this.onMessage as EventListener)
    for (const p of this.pending.values()) {
      if (p.timer) clearTimeout(p.timer)
      p.reject(walletError('UNKNOWN_EMBEDDED_WALLET_ERROR', EMBEDDED_WALLET_TEXTS.proxyMissing))
    }
    this.pending.clear()
    this.iframe?.remove()
    this.iframe = null
    this.target = null
    this.readyPromise = null
  }
}
