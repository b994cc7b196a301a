/**
 * 'captcha-challenge': the container the provider's widget renders into, with the status.
 * After success it goes back by itself in about a second; while the widget waits for the
 * user (an interactive challenge) it stays. On failure: the spec's text, the hint after 3
 * retries, and 'Try again'.
 */
import { useEffect, useRef } from 'react'
import { Button, ScreenLayout, StatusIcon, useKernel, useScreen, useStore, useTexts } from 'portico/ui/screens'
import type { CaptchaApi } from '../base'
import { CAPTCHA_TEXTS } from '../strings'

const AUTO_CONTINUE_MS = 1000

function captchaApi(kernel: ReturnType<typeof useKernel>): CaptchaApi {
  const id = kernel.plugins.find((p) => p.kind === 'captcha')?.id ?? 'captcha'
  return kernel.plugin<CaptchaApi>(id)
}

export default function CaptchaChallenge() {
  const kernel = useKernel()
  const captcha = captchaApi(kernel)
  const T = useTexts('captcha', CAPTCHA_TEXTS)
  const screen = useScreen()
  const { status, error } = useStore(captcha.state)
  const box = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (box.current) captcha.mount(box.current)
    return () => captcha.unmount()
  }, [captcha])

  useEffect(() => {
    if (status !== 'success') return
    const t = setTimeout(() => screen.back(), AUTO_CONTINUE_MS)
    return () => clearTimeout(t)
  }, [status, screen])

  const failed = status === 'error'
  const title = failed ? (error?.message ?? T.failure) : status === 'success' ? T.success : T.title
  const description = failed ? (error?.data?.afterRetries ? T.failureAfterRetries : undefined) : status === 'success' ? undefined : T.loading
  return (
    <ScreenLayout title={title} description={description} icon={<StatusIcon status={failed ? 'error' : status === 'success' ? 'success' : 'loading'} />}>
      <div ref={box} className="portico-captcha" data-status={status} />
      {failed && (
        <div className="portico-actions">
          <Button onClick={() => captcha.reset()}>{T.tryAgain}</Button>
        </div>
      )}
    </ScreenLayout>
  )
}
