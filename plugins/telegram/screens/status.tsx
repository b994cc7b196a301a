/**
 * 'telegram-status': Telegram's auth status with Retry. Opened from the landing row with the
 * popup's pending result (the popup opened inside the click); verifies it with the server
 * (login or link, by the flow's intent) and completes. Retry opens a new popup inside its click.
 */
import { useEffect, useRef } from 'react'
import { PorticoError, toPorticoError } from 'portico'
import { Button, ScreenLayout, StatusIcon, useCompleteLogin, useKernel, usePlugin, useScreen, useStore, useTexts, type ScreenProps } from 'portico/ui/screens'
import { authenticateTelegram, linkTelegram, type TelegramCredential } from '../calls'
import { telegramErrorText } from '../errors'
import { STATUS_SCREEN } from '../flow'
import { TELEGRAM_TEXTS } from '../strings'

type Params = {
  pending?: { result: Promise<TelegramCredential>; claimed?: boolean }
  disableSignup?: boolean
  [key: string]: unknown
}

export default function TelegramStatus({ params }: ScreenProps<Params>) {
  const kernel = useKernel()
  const telegram = usePlugin('telegram')
  const T = useTexts('telegram', TELEGRAM_TEXTS)
  const screen = useScreen()
  const complete = useCompleteLogin()
  const { status, error, script } = useStore(telegram.state)
  const alive = useRef(true)
  const { pending } = params

  useEffect(() => {
    alive.current = true
    if (pending && !pending.claimed) {
      pending.claimed = true
      void run(pending.result)
    } else if (!pending) telegram.state.set({ status: 'idle', error: null })
    return () => {
      alive.current = false
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pending])

  async function run(result: Promise<TelegramCredential>) {
    telegram.state.set({ status: 'waiting', error: null })
    try {
      const credential = await result
      if (!alive.current) return
      telegram.state.set({ status: 'verifying' })
      const response =
        screen.intent === 'login'
          ? await authenticateTelegram(kernel.api, credential, params.disableSignup ? 'no-signup' : 'login-or-sign-up')
          : await linkTelegram(kernel.api, credential)
      if (!alive.current) return
      telegram.state.set({ status: 'success' })
      await complete(response, { method: 'telegram' })
    } catch (e) {
      if (!alive.current) return
      const err = toPorticoError(e)
      // Screens of their own (transfer prompt, allowlist, user limit ...) take over; the rest shows here.
      if (kernel.screens.hasOwnScreen(err, { method: 'telegram' }) && !(err instanceof PorticoError && err.code.startsWith('telegram_'))) {
        telegram.state.set({ status: 'idle' })
        screen.error(err, { method: 'telegram' })
        return
      }
      telegram.state.set({ status: 'error', error: err })
    }
  }

  // A new popup must open inside this click.
  const retry = () => screen.replace(STATUS_SCREEN, { ...params, pending: { result: telegram.authorize() } })

  const failed = status === 'error' || (!pending && status === 'idle')
  const shown = failed && error ? telegramErrorText(error, T) : null
  const title = shown ? shown.title : status === 'success' ? T.success : screen.intent === 'login' ? T.title : T.linkTitle
  const description = shown
    ? shown.detail
    : status === 'verifying'
      ? T.verifying
      : status === 'waiting'
        ? T.waiting
        : script === 'loading'
          ? T.loading
          : undefined
  return (
    <ScreenLayout
      title={title}
      description={description}
      icon={<StatusIcon status={shown ? 'error' : status === 'success' ? 'success' : 'loading'} label={status} />}
    >
      {(failed || status === 'waiting') && (
        <div className="portico-actions">
          <Button variant={status === 'waiting' ? 'secondary' : 'primary'} onClick={retry}>
            {!pending && !error ? T.start : T.retry}
          </Button>
        </div>
      )}
    </ScreenLayout>
  )
}
