/**
 * 'passkey-wait': the waiting screen while the browser's system dialogue runs (part 1
 * sections 2 and 4): loading, then success (closes after about 1.4 s through
 * `useCompleteLogin`) or an error shown here with Retry. Continue stays disabled while it
 * waits. Errors with a screen of their own (allowlist, user limit ...) go there.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import type { PorticoError } from 'portico'
import { Button, ScreenLayout, StatusIcon, icons, useCompleteLogin, useKernel, usePlugin, useScreen, useStore, useTexts, type ScreenProps } from 'portico/ui/screens'
import { PASSKEY } from '../errors'
import { PASSKEY_TEXTS } from '../strings'

export default function PasskeyWaitScreen({ params }: ScreenProps<{ action?: 'signup' | 'login' }>) {
  const kernel = useKernel()
  const api = usePlugin('passkey')
  const screen = useScreen()
  const complete = useCompleteLogin()
  const T = useTexts(PASSKEY, PASSKEY_TEXTS)
  const { status } = useStore(api.state)
  const [error, setError] = useState<PorticoError | null>(null)
  const action = params.action === 'signup' ? 'signup' : 'login'
  const alive = useRef(true)

  const run = useCallback(async () => {
    setError(null)
    try {
      const res = await api.ceremony(action)
      if (!alive.current) return
      await complete(res, { method: PASSKEY, intent: 'login' })
    } catch (e) {
      if (!alive.current) return
      const err = e as PorticoError
      if (kernel.screens.hasOwnScreen(err, { method: PASSKEY })) screen.error(err, { method: PASSKEY })
      else setError(err)
    }
  }, [api, action, complete, kernel, screen])

  useEffect(() => {
    alive.current = true
    void run()
    return () => {
      alive.current = false
    }
    // Once per screen: Retry runs it again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  const view = error ? kernel.screens.resolveError(error, { method: PASSKEY }) : null
  const done = status === 'done' && !error
  const description = view
    ? view.detail
    : status === 'submitting-response'
      ? T.waitVerifying
      : done
        ? T.waitSuccess
        : T.waitSystemDialogue

  return (
    <ScreenLayout
      title={view ? view.title : T.waitTitle}
      description={<span role={view ? 'alert' : 'status'}>{description}</span>}
      icon={
        <StatusIcon status={view ? 'error' : done ? 'success' : 'loading'} label={view ? 'error' : done ? 'success' : 'loading'}>
          <icons.KeyIcon width={28} height={28} />
        </StatusIcon>
      }
    >
      <div className="portico-actions">
        {view ? (
          <Button onClick={() => void run()}>{T.retry}</Button>
        ) : (
          <Button disabled>{T.continue}</Button>
        )}
      </div>
    </ScreenLayout>
  )
}
