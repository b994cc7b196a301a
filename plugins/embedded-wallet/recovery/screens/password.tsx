/**
 * The four-step password create (and update) flow (spec part 2 sections 2, 4 and 5):
 * creating (strength meter, show/hide, Generate) → saving (Copy, Download) → confirming
 * (Enter submits) → finalizing (the acknowledgement box, Set Password) → done ('Success' or
 * 'Something went wrong', Close). The first step's back button shows only when the user came
 * from the recovery selection. Started by the user it can be cancelled and closed; started
 * automatically it cannot, and the modal closes 1.4 s after done.
 */
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { Button, CopyButton, ScreenLayout, StatusIcon, TextInput, icons, useScreen, useTexts, type ScreenProps } from 'portico/ui/screens'
import { PasswordInput } from './password-input'
import type { RecoveryController } from '../controller'
import { initialPasswordFlow, passwordFlow, type PasswordFlowState } from '../machine'
import { finisher, type OnDone } from '../finish'
import { SUCCESS_CLOSE_MS } from '../ids'
import {
  COPIED_MS,
  DOWNLOAD_REVOKE_MS,
  confirmError,
  isValidPassword,
  passwordError,
  passwordStrength,
  recoveryFileName,
  recoveryFileText,
  strengthScore,
} from '../password'
import { generatePassphrase } from '../passphrase'
import { RECOVERY_TEXTS } from '../strings'
import { useFocusInside, useMounted } from './mounted'

export interface PasswordFlowParams extends Record<string, unknown> {
  controller: RecoveryController
  /** 'create': a new wallet with this password; 'set': the existing wallet's recovery. */
  purpose: 'create' | 'set'
  mode?: 'create' | 'update'
  fromSelection?: boolean
  initiatedBy?: 'user' | 'automatic'
  onDone?: OnDone
}

export default function PasswordFlowScreen({ params }: ScreenProps<PasswordFlowParams>) {
  const T = useTexts('embedded-wallet', RECOVERY_TEXTS)
  const screen = useScreen()
  const automatic = params.initiatedBy === 'automatic'
  const end = useMemo(() => finisher(screen, params.onDone), [screen, params.onDone])
  const [flow, setFlow] = useState<PasswordFlowState>(initialPasswordFlow)
  const [password, setPassword] = useState('')
  const [touched, setTouched] = useState(false)
  const [shown, setShown] = useState(false)
  const [confirm, setConfirm] = useState('')
  const [confirmTouched, setConfirmTouched] = useState(false)
  const [ack, setAck] = useState(false)
  const alive = useMounted()
  // Each step, and the busy Set Password, keeps focus inside the dialog (Escape and Tab work).
  const stepRef = useRef<HTMLFormElement & HTMLDivElement>(null)
  useFocusInside(stepRef, `${flow.step}:${flow.submitting}`)

  const error = passwordError(password, touched, T)
  const valid = isValidPassword(password)
  const strength = passwordStrength(password)
  const mismatch = confirmError(password, confirm, confirmTouched, T)

  const next = async () => {
    const before = flow
    const moved = passwordFlow(before, { type: 'next' })
    setFlow(moved)
    if (before.step !== 'finalizing' || !moved.submitting) return
    let ok = true
    try {
      await params.controller.submitPassword(password, params.purpose)
    } catch {
      ok = false
    }
    if (alive.current) setFlow((s) => passwordFlow(s, { type: 'submitted', ok }))
  }
  const back = () => setFlow((s) => passwordFlow(s, { type: 'back' }))

  // Automatic: the modal closes 1.4 s after done.
  useEffect(() => {
    if (flow.step !== 'done' || !automatic) return
    const t = setTimeout(() => (flow.result === 'success' ? end.ok({ recoveryMethod: 'user-passcode' }) : end.cancel()), SUCCESS_CLOSE_MS)
    return () => clearTimeout(t)
  }, [flow, automatic, end])

  const strengthLabel = { Weak: T.weak, Medium: T.medium, Strong: T.strong }[strength]
  const title = params.mode === 'update' ? T.updateTitle : T.createTitle
  const cancel = automatic ? null : (
    <Button variant="ghost" onClick={() => end.cancel()}>
      {T.cancel}
    </Button>
  )
  /** A form step's Continue (submits) and Cancel. */
  const submitAndCancel = (disabled: boolean) => (
    <>
      <Button type="submit" disabled={disabled}>
        {T.continue}
      </Button>
      {cancel}
    </>
  )

  if (flow.step === 'creating') {
    const submit = (e: FormEvent) => {
      e.preventDefault()
      setTouched(true)
      if (valid) void next()
    }
    return (
      <ScreenLayout
        title={title}
        description={params.mode === 'update' ? T.updateDescription : T.createDescription}
        icon={<StatusIcon status="idle" label="password"><icons.LockIcon width={28} height={28} /></StatusIcon>}
        back={params.fromSelection ? () => screen.back() : false}
        close={!automatic}
      >
        <form ref={stepRef} onSubmit={submit} noValidate data-step="creating">
          <PasswordInput
            label={T.passwordLabel}
            shown={shown}
            onToggle={() => setShown((v) => !v)}
            T={T}
            autoComplete="new-password"
            autoFocus
            value={password}
            onChange={(e) => {
              setPassword(e.target.value)
              setTouched(true)
            }}
            onBlur={() => password && setTouched(true)}
            error={error}
          />
          <div className="portico-actions" data-strength={strength}>
            <meter min={0} max={1} low={0.5} high={0.9} optimum={1} value={strengthScore(password)} aria-label={T.strength.replace('{strength}', strengthLabel)} />
            <p className="portico-field-hint" aria-live="polite">
              {T.strength.replace('{strength}', strengthLabel)}
            </p>
          </div>
          <div className="portico-actions">
            <Button
              variant="secondary"
              onClick={async () => {
                const p = await generatePassphrase()
                if (!alive.current) return
                setPassword(p)
                setTouched(true)
                setShown(true)
              }}
            >
              {T.generate}
            </Button>
            {submitAndCancel(!valid)}
          </div>
        </form>
      </ScreenLayout>
    )
  }

  if (flow.step === 'saving') {
    return (
      <ScreenLayout title={T.saveTitle} description={T.saveDescription} back={back} close={!automatic}>
        <div ref={stepRef} data-step="saving">
          <TextInput label={T.passwordLabel} hideLabel readOnly value={password} data-testid="recovery-password-value" onFocus={(e) => e.currentTarget.select()} />
          <div className="portico-actions portico-actions-row">
            <CopyButton value={password} label={T.copy} copiedLabel={T.copied} resetAfterMs={COPIED_MS} />
            <DownloadButton password={password} appName={params.controller.appName} label={T.download} />
          </div>
          <div className="portico-actions">
            <Button onClick={() => void next()}>{T.continue}</Button>
            {cancel}
          </div>
        </div>
      </ScreenLayout>
    )
  }

  if (flow.step === 'confirming') {
    const submit = (e: FormEvent) => {
      e.preventDefault()
      setConfirmTouched(true)
      if (confirm === password) void next()
    }
    return (
      <ScreenLayout title={T.confirmTitle} description={T.confirmDescription} back={back} close={!automatic}>
        <form ref={stepRef} onSubmit={submit} noValidate data-step="confirming">
          <TextInput
            label={T.confirmLabel}
            type="password"
            autoComplete="new-password"
            autoFocus
            value={confirm}
            onChange={(e) => {
              setConfirm(e.target.value)
              if (e.target.value.length >= password.length) setConfirmTouched(true)
            }}
            onBlur={() => confirm && setConfirmTouched(true)}
            error={mismatch}
          />
          <div className="portico-actions">{submitAndCancel(confirm !== password)}</div>
        </form>
      </ScreenLayout>
    )
  }

  if (flow.step === 'finalizing') {
    return (
      <ScreenLayout title={T.finalTitle} description={T.finalDescription} back={flow.submitting ? false : back} close={!automatic}>
        <div ref={stepRef} data-step="finalizing">
          <p className="portico-description">
            <label>
              <input type="checkbox" checked={ack} onChange={(e) => setAck(e.target.checked)} disabled={flow.submitting} /> {T.acknowledgement}
            </label>
          </p>
          <div className="portico-actions">
            <Button onClick={() => void next()} disabled={!ack} loading={flow.submitting}>
              {T.setPassword}
            </Button>
          </div>
        </div>
      </ScreenLayout>
    )
  }

  const ok = flow.result === 'success'
  return (
    <ScreenLayout
      title={ok ? T.success : T.failed}
      description={<span role={ok ? 'status' : 'alert'}>{ok ? T.successDescription : T.failedDescription}</span>}
      icon={<StatusIcon status={ok ? 'success' : 'error'} label={ok ? 'success' : 'error'} />}
      back={false}
      close={!automatic}
    >
      <div ref={stepRef} className="portico-actions" data-step="done">
        {automatic ? null : (
          <Button onClick={() => (ok ? end.ok({ recoveryMethod: 'user-passcode' }) : end.cancel())}>{T.close}</Button>
        )}
      </div>
    </ScreenLayout>
  )
}

/** Download: a text file with the rule's name; the blob URL is revoked after 5 s. */
function DownloadButton({ password, appName, label }: { password: string; appName: string; label: string }) {
  const name = useMemo(() => recoveryFileName(appName), [appName])
  const download = () => {
    const url = URL.createObjectURL(new Blob([recoveryFileText(password, appName)], { type: 'text/plain' }))
    const a = document.createElement('a')
    a.href = url
    a.download = name
    a.rel = 'noopener'
    document.body.appendChild(a)
    a.click()
    a.remove()
    setTimeout(() => URL.revokeObjectURL(url), DOWNLOAD_REVOKE_MS)
  }
  return (
    <button type="button" className="portico-copy" onClick={download} data-filename={name}>
      <icons.DocumentIcon width={16} height={16} />
      <span>{label}</span>
    </button>
  )
}
