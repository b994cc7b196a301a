/**
 * What the wallet service's visible pages (export, delegation consent) share: the theme from the
 * page's config (colours checked on the server: #rgb / #rrggbb, set through the CSSOM, which the
 * CSP allows), a small element builder (no innerHTML) and the one-request exchange with the
 * host (`embeddedPage`).
 */
import { FRAME_PROTOCOL, isFrameRequest, type FrameData, type FrameError, type FrameReplyMessage, type FrameRequestType } from '../src/wire/frame'
import { FRAME_TEXTS, createApi, type FrameConfig, type FrameContext } from './context'
import { accepts } from './guard'
export interface PageTheme {
  theme: 'light' | 'dark'
  colors: { accent?: string; background?: string; foreground?: string }
}

/** `prefix`: the page's CSS variable prefix ('x' export, 'c' consent). */
export function applyTheme(c: PageTheme, prefix: string): void {
  const root = document.documentElement
  root.dataset.theme = c.theme
  if (c.colors.accent) root.style.setProperty(`--${prefix}-accent`, c.colors.accent)
  if (c.colors.background) root.style.setProperty(`--${prefix}-bg`, c.colors.background)
  if (c.colors.foreground) root.style.setProperty(`--${prefix}-fg`, c.colors.foreground)
}

export const el = <K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]) => {
  const e = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v)
  e.append(...children)
  return e
}

/**
 * A visible page a host embeds for ONE request (export, consent): its config (the JSON the
 * server put in the page), its API and the app's theme; `serve` answers `ready` and the one
 * request type, from the parent window only and only on one of the app's allowed origins
 * (`accepts`), relays Escape (the host's dialog does not see keys pressed here) and replies
 * a failure (`fail` says what the page shows of it). `toHost` posts to the origin that talked
 * to the page, never before one did.
 */
export function embeddedPage<C extends FrameConfig & PageTheme>(ids: { config: string; main: string; theme: string }) {
  const config = JSON.parse(document.getElementById(ids.config)?.textContent ?? '{}') as C
  const api = createApi(config)
  const main = document.getElementById(ids.main) as HTMLElement
  applyTheme(config, ids.theme)
  let hostOrigin: string | null = null
  const toHost = (m: unknown) => void (hostOrigin && window.parent.postMessage(m, hostOrigin))

  function serve<T extends FrameRequestType, P>(o: {
    request: T
    escape: string
    run(payload: P, ctx: FrameContext): Promise<FrameData<T>>
    /** The error replied (and shown) for `err`. */
    error(err: unknown): FrameError
    /** Show the failure in the page (or not). */
    shown(error: FrameError, err: unknown): void
  }): void {
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') toHost({ protocol: FRAME_PROTOCOL, type: o.escape })
    })
    window.addEventListener('message', (event: MessageEvent) => {
      const parent = window.parent
      if (!accepts(event, parent, window, config.allowedOrigins)) return
      if (!isFrameRequest(event.data)) return
      const { id, type, payload } = event.data
      const origin = event.origin
      hostOrigin = origin
      const reply = (m: FrameReplyMessage<T>) => parent.postMessage(m, origin)
      const fail = (error: FrameError) => reply({ protocol: FRAME_PROTOCOL, id, error })
      if (type === 'ready') return reply({ protocol: FRAME_PROTOCOL, id, data: { version: 1 } })
      if (type !== o.request) return fail({ type: 'invalid_request_arguments', message: `${FRAME_TEXTS.unknownType}: ${String(type)}` })
      const ctx: FrameContext = { config, origin, api }
      o.run((payload ?? {}) as P, ctx).then(
        (data) => reply({ protocol: FRAME_PROTOCOL, id, data }),
        (err: unknown) => {
          const e = o.error(err)
          o.shown(e, err)
          fail(e)
        },
      )
    })
  }
  return { config, api, main, toHost, serve }
}
