/**
 * Password recovery (spec part 2 sections 2 and 4): 'Enter your password' with the
 * 'Recover your account' button, enabled only when a password has been typed. A wrong
 * password shows 'Invalid recovery password, please try again.' and the user retries; success
 * closes the modal after 1.4 s. For a pre-generated wallet not claimed yet (`claim`), the same
 * screen asks for the claim code: 'Claim your wallet'.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react'
import type { PorticoError } from 'portico'
import { Button, ScreenLayout, StatusIcon, icons, useScreen, useTexts, type ScreenProps } from 'portico/ui/screens'
import type { RecoverInput, RecoveryController } from '../controller'
import { finisher, type OnDone } from '../finish'
import { SUCCESS_CLOSE_MS } from '../ids'
import { RECOVERY_TEXTS } from '../strings'
import { useFocusInside, useMounted } from './mounted'
import { PasswordInput } from './password-input'

export default function PasswordRecoverScreen({ params }: ScreenProps<{ controller: RecoveryController; recover?: (input: RecoverInput) => Promise<void>; onDone?: OnDone; claim?: boolean }>) {
  const T = useTexts('embedded-wallet', RECOVERY_TEXTS)
  // A pre-generated wallet's claim: the claim code the app sent instead of a password.
  const claim = params.claim === true
  const screen = useScreen()
  const [password, setPassword] = useState('')
  const [shown, setShown] = useState(false)
  const [status, setStatus] = useState<'idle' | 'recovering' | 'done'>('idle')
  const [error, setError] = useState<string | null>(null)
  const alive = useMounted()
  // The busy field and button disable themselves: focus stays inside the dialog (Escape and × work).
  const formRef = useRef<HTMLFormElement>(null)
  useFocusInside(formRef, status)
  useEffect(() => {
    if (status !== 'done') return
    const t = setTimeout(() => finisher(screen, params.onDone).ok({ recovered: true }), SUCCESS_CLOSE_MS)
    return () => clearTimeout(t)
  }, [status, screen, params.onDone])

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!password || status !== 'idle') return
    setError(null)
    setStatus('recovering')
    try {
      await params.controller.recoverWithPassword(password, params.recover)
      if (alive.current) setStatus('done')
    } catch (err) {
      if (!alive.current) return
      setStatus('idle')
      const p = err as PorticoError
      if ((p?.code as string) === 'invalid_recovery_pin') setError(claim ? T.invalidClaimCode : T.invalidPassword)
      else screen.error(err)
    }
  }

  const done = status === 'done'
  return (
    <ScreenLayout
      title={done ? T.cloudRecovered : claim ? T.claimTitle : T.enterPassword}
      description={<span role={done ? 'status' : undefined}>{done ? T.success : claim ? T.claimDescription : T.recoverDescription}</span>}
      icon={
        <StatusIcon status={done ? 'success' : status === 'recovering' ? 'loading' : 'idle'} label={done ? 'success' : 'password'}>
          <icons.LockIcon width={28} height={28} />
        </StatusIcon>
      }
    >
      <form ref={formRef} onSubmit={submit} noValidate>
        <PasswordInput
          label={claim ? T.claimLabel : T.passwordLabel}
          shown={shown}
          onToggle={() => setShown((v) => !v)}
          T={T}
          autoComplete={claim ? 'off' : 'current-password'}
          autoFocus
          value={password}
          disabled={status !== 'idle'}
          onChange={(e) => {
            setPassword(e.target.value)
            setError(null)
          }}
          error={error}
        />
        <div className="portico-actions">
          <Button type="submit" disabled={!password || done} loading={status === 'recovering'}>
            {claim ? T.claimButton : T.recoverTitle}
          </Button>
        </div>
      </form>
    </ScreenLayout>
  )
}
