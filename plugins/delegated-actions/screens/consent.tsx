/**
 * 'delegated-actions-consent' — 'Enable offline access': the consent page of the wallet service
 * in a visible iframe (its own origin). The page shows the app's name, the wallet and the
 * policy in plain words, with Allow and Not now; only a click on Allow THERE delegates (this
 * page cannot click for the user, and no message alone delegates). Then success or the error
 * shows here and the modal closes after 2.5 s; Not now (or ×, or Escape) declines.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { toPorticoError } from 'portico'
import { ScreenLayout, StatusIcon, useKernel, usePlugin, useScreen, useTexts, type ScreenProps } from 'portico/ui/screens'
import { onConsentPage } from '../calls'
import { DELEGATED_ACTIONS, RESULT_CLOSE_MS } from '../ids'
import type { ConsentScreenParams, ScreenOutcome } from '../flow'
import { consentPath } from '../protocol'
import { DELEGATED_ACTIONS_TEXTS } from '../strings'
import type { EmbeddedWalletApi } from 'portico/plugins/embedded-wallet'

/** The iframe's height before the page reports its own (and its bounds). */
export const CONSENT_FRAME_HEIGHT = 340
const MIN_HEIGHT = 160
const MAX_HEIGHT = 560

function themeOf(theme: string | undefined): 'light' | 'dark' {
  if (theme === 'dark' || theme === 'light') return theme
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
}

/** `rgb(r, g, b)` (a computed colour) → `#rrggbb`; anything else (transparent, rgba) → null. */
function rgbToHex(c: string): string | null {
  const m = /^rgb\((\d{1,3}), (\d{1,3}), (\d{1,3})\)$/.exec(c.trim())
  return m ? `#${m.slice(1, 4).map((x) => Number(x).toString(16).padStart(2, '0')).join('')}` : null
}

type Phase = { step: 'asking' } | { step: 'success' } | { step: 'error'; message: string }

export default function ConsentScreen({ params }: ScreenProps<ConsentScreenParams>) {
  const kernel = useKernel()
  const screen = useScreen()
  const api = usePlugin('delegated-actions')
  const T = useTexts(DELEGATED_ACTIONS, DELEGATED_ACTIONS_TEXTS)
  const frame = useRef<HTMLIFrameElement>(null)
  const probe = useRef<HTMLSpanElement>(null)
  const outcome = useRef<ScreenOutcome | null>(null)
  const [phase, setPhase] = useState<Phase>({ step: 'asking' })
  const [height, setHeight] = useState(CONSENT_FRAME_HEIGHT)
  // The page takes the dialog's own colours, so it blends in (light, dark, custom themes).
  const [colors, setColors] = useState<{ bg: string | null; fg: string | null } | null>(null)
  useLayoutEffect(() => {
    const box = probe.current?.closest<HTMLElement>('[role=dialog]') ?? probe.current?.parentElement
    const cs = box && typeof getComputedStyle === 'function' ? getComputedStyle(box) : null
    setColors({ bg: cs ? rgbToHex(cs.backgroundColor) : null, fg: cs ? rgbToHex(cs.color) : null })
  }, [])
  const ew: EmbeddedWalletApi | null = kernel.hasPlugin('embedded-wallet') ? kernel.plugin('embedded-wallet') : null
  const origin = ew?.frameOrigin() ?? null
  const accent = kernel.config.appearance.accentColor
  const src =
    origin && colors
      ? origin +
        consentPath(kernel.config.appId, {
          theme: themeOf(kernel.config.appearance.theme),
          accentColor: accent && /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(accent) ? accent : null,
          backgroundColor: colors.bg,
          foregroundColor: colors.fg,
        })
      : null

  useEffect(() => {
    if (!colors) return
    if (!src || !origin) {
      outcome.current = { error: new Error(T.noWalletFrame) }
      setPhase({ step: 'error', message: T.noWalletFrame })
      return
    }
    const ac = new AbortController()
    const target = { get contentWindow() { return frame.current?.contentWindow ?? null } }
    api.consent(ew, params, target, origin, ac.signal).then(
      (r) => {
        if (ac.signal.aborted) return
        if ('declined' in r) return screen.close({ declined: true } satisfies ScreenOutcome)
        outcome.current = { done: true }
        setPhase({ step: 'success' })
      },
      (e) => {
        if (ac.signal.aborted) return
        outcome.current = { error: e }
        setPhase({ step: 'error', message: toPorticoError(e).message })
      },
    )
    return () => ac.abort()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [src])

  // Escape pressed inside the page closes the dialog as Escape anywhere else in it does; the page sizes its iframe.
  useEffect(() => {
    if (!origin) return
    const target = { get contentWindow() { return frame.current?.contentWindow ?? null } }
    return onConsentPage(target, origin, {
      escape: () => frame.current?.closest('[role=dialog]')?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true })),
      resize: (h) => setHeight(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.ceil(h)))),
    })
  }, [origin])

  // Success or failure: the modal closes after 2.5 s (spec part 2 section 9).
  useEffect(() => {
    if (phase.step === 'asking') return
    const t = setTimeout(() => screen.close(outcome.current), RESULT_CLOSE_MS)
    return () => clearTimeout(t)
  }, [phase.step, screen])

  if (phase.step !== 'asking') {
    return (
      <ScreenLayout
        title={phase.step === 'success' ? T.consentSuccess : T.failedTitle}
        description={phase.step === 'error' ? phase.message : undefined}
        icon={<StatusIcon status={phase.step} />}
        back={false}
        className="delegated-actions-result"
      />
    )
  }
  return (
    <ScreenLayout title={T.consentTitle} className="delegated-actions-consent" back={false}>
      <span ref={probe} hidden />
      {src && (
        <iframe
          ref={frame}
          src={src}
          title={T.frameTitle}
          width="100%"
          height={height}
          frameBorder={0}
          referrerPolicy="no-referrer"
          // In the dialog's tab order (its focus trap counts [tabindex]): Tab reaches Not now and Allow inside.
          tabIndex={0}
          sandbox="allow-scripts allow-same-origin"
          className="delegated-actions-frame"
          data-testid="delegated-actions-frame"
        />
      )}
    </ScreenLayout>
  )
}
