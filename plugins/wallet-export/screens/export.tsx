/**
 * 'wallet-export' — 'Transfer wallet': the export page of the wallet service in a visible
 * iframe (its own origin: this page cannot read what it shows), and a button that stays in its
 * loading state until the page reports the key is shown. The access token goes to the page by
 * postMessage after its `ready`; the URL carries only public data (addresses, index, theme).
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { Button, ScreenLayout, useKernel, useScreen, useTexts, type ScreenProps } from 'portico/ui/screens'
import { onExportFrameEscape, requestExport } from '../calls'
import { exportError, WALLET_EXPORT } from '../ids'
import type { ExportScreenParams } from '../flow'
import { exportPath } from '../protocol'
import { WALLET_EXPORT_TEXTS } from '../strings'
import type { EmbeddedWallet } from 'portico/plugins/embedded-wallet'

/** Frame size: the modal's content width, tall enough for the QR code (275), the key and Copy. */
export const EXPORT_FRAME_WIDTH = 312
export const EXPORT_FRAME_HEIGHT = 394

function themeOf(theme: string | undefined): 'light' | 'dark' {
  if (theme === 'dark' || theme === 'light') return theme
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
}

/** `rgb(r, g, b)` (a computed colour) → `#rrggbb`; anything else (transparent, rgba) → null. */
export function rgbToHex(c: string): string | null {
  const m = /^rgb\((\d{1,3}), (\d{1,3}), (\d{1,3})\)$/.exec(c.trim())
  return m ? `#${m.slice(1, 4).map((x) => Number(x).toString(16).padStart(2, '0')).join('')}` : null
}

export default function ExportScreen({ params }: ScreenProps<ExportScreenParams>) {
  const kernel = useKernel()
  const screen = useScreen()
  const T = useTexts(WALLET_EXPORT, WALLET_EXPORT_TEXTS)
  const frame = useRef<HTMLIFrameElement>(null)
  const probe = useRef<HTMLSpanElement>(null)
  const [shown, setShown] = useState(false)
  // The page takes the dialog's own colours, so it blends in (light, dark, custom themes).
  const [colors, setColors] = useState<{ bg: string | null; fg: string | null } | null>(null)
  useLayoutEffect(() => {
    const box = probe.current?.closest<HTMLElement>('[role=dialog]') ?? probe.current?.parentElement
    const cs = box && typeof getComputedStyle === 'function' ? getComputedStyle(box) : null
    setColors({ bg: cs ? rgbToHex(cs.backgroundColor) : null, fg: cs ? rgbToHex(cs.color) : null })
  }, [])
  // The wallet service's origin and the wallet's root (entropy id and verifier) come from the embedded-wallet plugin.
  const ew = kernel.hasPlugin('embedded-wallet') ? kernel.plugin('embedded-wallet') : null
  const origin = ew?.frameOrigin() ?? null
  const root: EmbeddedWallet | null = ew?.wallets().find((w) => w.address === params.address) ?? null
  const accent = kernel.config.appearance.accentColor
  const src =
    origin && root && colors
      ? origin +
        exportPath(kernel.config.appId, {
          clientId: kernel.config.clientId,
          primaryAddress: root.entropyId,
          address: params.address,
          walletIndex: params.walletIndex,
          width: EXPORT_FRAME_WIDTH,
          phraseExport: params.phrase,
          theme: themeOf(kernel.config.appearance.theme),
          accentColor: accent && /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(accent) ? accent : null,
          backgroundColor: colors.bg,
          foregroundColor: colors.fg,
        })
      : null

  useEffect(() => {
    if (!colors) return
    if (!src || !origin || !root) {
      screen.error(exportError('EMBEDDED_WALLET_NOT_FOUND', T.mustHaveWallet))
      return
    }
    const ac = new AbortController()
    const target = { get contentWindow() { return frame.current?.contentWindow ?? null } }
    requestExport(target, origin, async () => {
      const token = await kernel.session.getAccessToken()
      if (!token) throw exportError('MUST_BE_AUTHENTICATED', T.mustBeAuthenticated)
      return { accessToken: token, entropyIdVerifier: root.entropyIdVerifier }
    }, { signal: ac.signal }).then(
      () => !ac.signal.aborted && setShown(true),
      (e) => !ac.signal.aborted && screen.error(e, { method: WALLET_EXPORT }),
    )
    return () => ac.abort()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [src])

  // Escape pressed inside the export page (its own document: the key never reaches this dialog)
  // closes the dialog as Escape anywhere else in it does.
  useEffect(() => {
    if (!origin) return
    const target = { get contentWindow() { return frame.current?.contentWindow ?? null } }
    return onExportFrameEscape(target, origin, () => {
      frame.current?.closest('[role=dialog]')?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
    })
  }, [origin])

  return (
    <ScreenLayout title={T.title} description={params.phrase ? T.phraseDescription : T.description} className="wallet-export-screen">
      <span ref={probe} hidden />
      {src && (
        <iframe
          ref={frame}
          src={src}
          title={T.frameTitle}
          width="100%"
          height={EXPORT_FRAME_HEIGHT}
          frameBorder={0}
          allow="clipboard-write"
          referrerPolicy="no-referrer"
          sandbox="allow-scripts allow-same-origin"
          className="wallet-export-frame"
          data-testid="wallet-export-frame"
        />
      )}
      <div className="portico-actions">
        <Button loading={!shown} onClick={() => screen.close()} data-testid="wallet-export-done">
          {T.done}
        </Button>
      </div>
    </ScreenLayout>
  )
}
