/**
 * '<provider>-oauth': the awaiting-OAuth screen (part 1 section 2): 'Verifying connection',
 * then 'Successfully connected'; on failure 'Authentication failed' with the detail of part 1
 * section 8 and Retry when retryable. Every provider registers it under its own id; the
 * engine drives it (state in the provider plugin's store). Opened by `link('<provider>')`
 * without a running flow, it starts one (redirect mode) or offers 'Continue with …' (popup
 * mode: the window must open inside a click).
 */
import { createElement, useEffect, type ComponentType, type SVGProps } from 'react'
import { Button, ScreenLayout, StatusIcon, usePlugin, useScreen, useStore, useTexts, type ScreenProps } from 'portico/ui/screens'
import type { OAuthApi } from '../flow'
import { OAUTH_TEXTS } from '../strings'

function ProviderIcon({ icon, size }: { icon: unknown; size: number }) {
  if (typeof icon === 'string') return <img src={icon} alt="" width={size} height={size} />
  if (typeof icon === 'function') return createElement(icon as ComponentType<SVGProps<SVGSVGElement>>, { width: size, height: size, 'aria-hidden': true })
  return null
}

export default function OAuthStatusScreen({ params }: ScreenProps<{ plugin: string; running?: boolean }>) {
  const api = usePlugin<OAuthApi>(params.plugin)
  const T = useTexts(params.plugin, OAUTH_TEXTS)
  const screen = useScreen()
  const st = useStore(api.state)
  const name = api.spec.displayName
  const fill = (t: string) => t.replace('{provider}', name)

  useEffect(() => {
    if (params.running) return
    // Opened by link() (or directly): start now in redirect mode; popup mode waits for the click.
    api.state.set((s) => ({ ...s, status: 'initial', intent: screen.intent, error: null, detail: null }))
    if (api.state.get().mode === 'redirect' && !api.refusesThisBrowser()) api.start(screen.intent)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  const go = () => api.start(screen.intent)
  const icon = <ProviderIcon icon={api.spec.icon} size={28} />

  if (st.status === 'initial') {
    return (
      <ScreenLayout title={fill(T.continueWith)} icon={<StatusIcon status="idle" label={name}>{icon}</StatusIcon>}>
        <div className="portico-actions">
          <Button onClick={go} icon={<ProviderIcon icon={api.spec.icon} size={20} />} data-autofocus="">
            {fill(T.continueWith)}
          </Button>
        </div>
      </ScreenLayout>
    )
  }
  if (st.status === 'error') {
    return (
      <ScreenLayout title={T.failedTitle} description={st.detail ?? T.invalidCredentials} icon={<StatusIcon status="error" label={T.failedTitle} />}>
        <div className="portico-actions">
          {st.retryable ? (
            <Button onClick={go} data-autofocus="">
              {T.retry}
            </Button>
          ) : screen.intent === 'login' ? (
            <Button variant="secondary" onClick={screen.landing}>
              {T.tryAnotherMethod}
            </Button>
          ) : null}
        </div>
      </ScreenLayout>
    )
  }
  const success = st.status === 'success'
  const description = st.status === 'redirecting' ? fill(T.redirecting) : st.status === 'awaiting' ? fill(T.awaitingPopup) : undefined
  return (
    <ScreenLayout
      title={success ? T.success : T.verifying}
      description={description}
      icon={
        <StatusIcon status={success ? 'success' : 'loading'} label={success ? T.success : T.verifying}>
          {icon}
        </StatusIcon>
      }
    >
      {st.status === 'awaiting' ? (
        <div className="portico-actions">
          <Button variant="secondary" onClick={api.cancel}>
            {T.cancel}
          </Button>
        </div>
      ) : null}
    </ScreenLayout>
  )
}
