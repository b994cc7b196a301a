/**
 * A page of the wallet service in a visible iframe (the export page, the delegation consent
 * page): its own origin, so the host cannot read what it shows. It speaks the wallet frame's
 * protocol: the host pings `ready`, then sends ONE request, built only then (it carries the
 * access token); the page answers once the user acted in it. Replies and notices count only
 * from that origin AND that iframe's window. The page takes the dialog's look (theme, accent
 * and the dialog's own colours) from its address, and reports Escape pressed inside it.
 *
 * Loaded on use: `loadWalletPage()` from the plugin's entry (the plugins building on it call it
 * in their lazy flows and screens).
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { PorticoAbortError, PorticoError } from 'portico'
import { useKernel } from 'portico/ui/screens'
import { FRAME_PROTOCOL, FRAME_READY_PING_MS, FRAME_READY_TIMEOUT_MODAL_MS, type FrameErrorType } from './protocol'

/** The iframe the page lives in (a ref's getter, or a test double). */
export interface PageTarget {
  contentWindow: Pick<Window, 'postMessage'> | null
}

/** The look a page takes from the dialog (its address's query). */
export interface PageLook {
  theme: 'light' | 'dark'
  accentColor: string | null
  backgroundColor: string | null
  foregroundColor: string | null
}

/**
 * A page's path on the wallet service's origin, `/apps/{appId}/embedded-wallets/{name}`, with the
 * dialog's look as its query (public data only: the token comes by message).
 */
export function pagePath(appId: string, name: string, look: Partial<PageLook> = {}): string {
  const p = new URLSearchParams()
  if (look.theme) p.set('theme', look.theme)
  if (look.accentColor) p.set('accent_color', look.accentColor)
  if (look.backgroundColor) p.set('background_color', look.backgroundColor)
  if (look.foregroundColor) p.set('foreground_color', look.foregroundColor)
  const qs = p.toString()
  return `/apps/${encodeURIComponent(appId)}/embedded-wallets/${name}${qs ? `?${qs}` : ''}`
}

export interface PageRequest<P> {
  /** The request's message type (`wallets:export`, `delegated-actions:consent`). */
  type: string
  /** Built once the page is ready. */
  payload: () => Promise<P>
  /** The plugin asking (the error's `data.provider`). */
  provider: string
  /** Error codes by the page's error type; any other is UNKNOWN_EMBEDDED_WALLET_ERROR. */
  codes?: Partial<Record<FrameErrorType, string>>
}

export interface PageOptions {
  window?: Window
  signal?: AbortSignal
  /** Spec part 2 section 9: the wallet service must be ready within 30 s in the modal. */
  readyTimeoutMs?: number
}

let seq = 0
const newId = () => `p${Date.now().toString(36)}${(++seq).toString(36)}`

const fromPage = (event: MessageEvent, frame: PageTarget, origin: string) =>
  event.origin === origin && !!frame.contentWindow && event.source === (frame.contentWindow as unknown)

/**
 * Runs the page's handshake: resolves with its reply once the user acted; rejects with the
 * page's `{ type, message }` as a PorticoError (its code from `codes`).
 */
export function requestPage<R, P = unknown>(frame: PageTarget, origin: string, request: PageRequest<P>, opts: PageOptions = {}): Promise<R> {
  const win = opts.window ?? window
  return new Promise<R>((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new PorticoAbortError())
    const readyId = newId()
    const requestId = newId()
    let ping: ReturnType<typeof setInterval> | undefined
    let timer: ReturnType<typeof setTimeout> | undefined
    const stop = () => {
      clearInterval(ping)
      clearTimeout(timer)
      win.removeEventListener('message', onMessage)
    }
    const post = (id: string, type: string, p: unknown) => frame.contentWindow?.postMessage({ protocol: FRAME_PROTOCOL, id, type, payload: p }, origin)
    const fail = (e: unknown) => {
      stop()
      reject(e)
    }
    const data = { provider: request.provider }
    function onMessage(event: MessageEvent) {
      if (!fromPage(event, frame, origin)) return
      const m = event.data as { protocol?: string; id?: string; data?: unknown; error?: { type: FrameErrorType; message: string } } | null
      if (!m || m.protocol !== FRAME_PROTOCOL) return
      if (m.id === readyId) {
        if (!ping) return
        clearInterval(ping)
        ping = undefined
        clearTimeout(timer)
        request.payload().then((p) => post(requestId, request.type, p), fail)
      } else if (m.id === requestId) {
        stop()
        if (m.error) {
          const code = request.codes?.[m.error.type] ?? 'UNKNOWN_EMBEDDED_WALLET_ERROR'
          reject(new PorticoError(code, m.error.message, { kind: 'client_error', data: { ...data, frameErrorType: m.error.type } }))
        } else resolve(m.data as R)
      }
    }
    win.addEventListener('message', onMessage)
    opts.signal?.addEventListener('abort', () => fail(new PorticoAbortError()))
    timer = setTimeout(
      () => fail(new PorticoError('UNKNOWN_EMBEDDED_WALLET_ERROR', 'Failed to connect to wallet proxy', { kind: 'client_error', data })),
      opts.readyTimeoutMs ?? FRAME_READY_TIMEOUT_MODAL_MS,
    )
    const send = () => post(readyId, 'ready', {})
    ping = setInterval(send, FRAME_READY_PING_MS)
    send()
  })
}

/**
 * The page's own notices by type (`{ protocol, type, ... }`: Escape pressed inside it, its
 * content height), only from that frame's window and origin. Returns the unsubscribe function.
 */
export function onPage(
  frame: PageTarget,
  origin: string,
  on: Record<string, (message: Record<string, unknown>) => void>,
  win: Pick<Window, 'addEventListener' | 'removeEventListener'> = window,
): () => void {
  const onMessage = (event: MessageEvent) => {
    if (!fromPage(event, frame, origin)) return
    const m = event.data as { protocol?: string; type?: string } | null
    if (m && m.protocol === FRAME_PROTOCOL && typeof m.type === 'string' && Object.hasOwn(on, m.type)) on[m.type](m)
  }
  win.addEventListener('message', onMessage as EventListener)
  return () => win.removeEventListener('message', onMessage as EventListener)
}

function themeOf(theme: string | undefined): 'light' | 'dark' {
  if (theme === 'dark' || theme === 'light') return theme
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
}

/** `rgb(r, g, b)` (a computed colour) → `#rrggbb`; anything else (transparent, rgba) → null. */
export function rgbToHex(c: string): string | null {
  const m = /^rgb\((\d{1,3}), (\d{1,3}), (\d{1,3})\)$/.exec(c.trim())
  return m ? `#${m.slice(1, 4).map((x) => Number(x).toString(16).padStart(2, '0')).join('')}` : null
}

export interface WalletPageFrameProps<R> {
  /** The wallet service's origin. */
  origin: string
  /** The page's path for the dialog's look (public data only: the token comes by message). */
  path(look: PageLook): string
  /** The page's step, run once its address is known; aborted when the screen goes. */
  run(target: PageTarget, signal: AbortSignal): Promise<R>
  onDone(reply: R): void
  onError(error: unknown): void
  /** The notice the page sends when Escape is pressed inside it: the dialog closes as on Escape anywhere in it. */
  escape: string
  /** The notice carrying the page's content height (`{ height }`), if it sizes its iframe. */
  resize?: { type: string; on(height: number): void }
  title: string
  height: number
  className: string
  testId: string
  /** Extra iframe attributes. */
  allow?: string
  tabIndex?: number
}

/**
 * The page's iframe inside a screen: reads the dialog's colours (so the page blends in: light,
 * dark, custom themes), then embeds the page and runs its step; forwards its Escape.
 */
export function WalletPageFrame<R>(p: WalletPageFrameProps<R>) {
  const kernel = useKernel()
  const frame = useRef<HTMLIFrameElement>(null)
  const probe = useRef<HTMLSpanElement>(null)
  const [colors, setColors] = useState<{ bg: string | null; fg: string | null } | null>(null)
  useLayoutEffect(() => {
    const box = probe.current?.closest<HTMLElement>('[role=dialog]') ?? probe.current?.parentElement
    const cs = box && typeof getComputedStyle === 'function' ? getComputedStyle(box) : null
    setColors({ bg: cs ? rgbToHex(cs.backgroundColor) : null, fg: cs ? rgbToHex(cs.color) : null })
  }, [])
  const accent = kernel.config.appearance.accentColor
  const src = colors
    ? p.origin +
      p.path({
        theme: themeOf(kernel.config.appearance.theme),
        accentColor: accent && /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(accent) ? accent : null,
        backgroundColor: colors.bg,
        foregroundColor: colors.fg,
      })
    : null
  const target: PageTarget = { get contentWindow() { return frame.current?.contentWindow ?? null } }

  useEffect(() => {
    if (!src) return
    const ac = new AbortController()
    p.run(target, ac.signal).then(
      (r) => !ac.signal.aborted && p.onDone(r),
      (e) => !ac.signal.aborted && p.onError(e),
    )
    return () => ac.abort()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [src])

  // Escape pressed inside the page (its own document) closes the dialog as Escape anywhere else in it does.
  useEffect(() => {
    const on: Record<string, (m: Record<string, unknown>) => void> = {
      [p.escape]: () => frame.current?.closest('[role=dialog]')?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true })),
    }
    if (p.resize) {
      const resize = p.resize.on
      on[p.resize.type] = (m) => typeof m.height === 'number' && Number.isFinite(m.height) && resize(m.height)
    }
    return onPage(target, p.origin, on)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [p.origin])

  return (
    <>
      <span ref={probe} hidden />
      {src && (
        <iframe
          ref={frame}
          src={src}
          title={p.title}
          width="100%"
          height={p.height}
          frameBorder={0}
          allow={p.allow}
          referrerPolicy="no-referrer"
          tabIndex={p.tabIndex}
          sandbox="allow-scripts allow-same-origin"
          className={p.className}
          data-testid={p.testId}
        />
      )}
    </>
  )
}
