/**
 * Error, rejection and consent screens (part 1 sections 2 and 8). Each takes the error and
 * its resolved view from the navigator (`screens.error(err)` pushes `{ error, view }`).
 */
import { useState, useSyncExternalStore } from 'react'
import { type ErrorView, type PorticoError, type WireUser } from 'portico'
import { ERROR_TEXTS } from 'portico/internal'
import { Button } from '../components/button'
import { ScreenLayout } from '../components/layout'
import { Spinner } from '../components/status'
import { AlertIcon, DocumentIcon, GlobeIcon, LockIcon, UserIcon } from '../components/icons'
import { useKernel, useTexts, useUiAttachment } from '../context'
import { useScreen, type ScreenProps } from '../screen-context'
import { UI_TEXTS } from '../strings'

type ErrorParams = { error?: PorticoError; view?: ErrorView }

function Badge({ children, tone = 'error' }: { children: React.ReactNode; tone?: 'error' | 'neutral' }) {
  return (
    <span className="portico-badge" data-tone={tone}>
      {children}
    </span>
  )
}

/** Run an ErrorView's call to action. */
function useAction() {
  const screen = useScreen()
  return (view: ErrorView | undefined) => {
    switch (view?.action) {
      case 'landing':
        return screen.landing()
      case 'close':
        return screen.dismiss()
      case 'link':
        if (view.href) window.location.assign(view.href)
        return
      default:
        return screen.back()
    }
  }
}

/** The generic error screen: title, detail and call to action by error type (section 8). */
export function ErrorScreen({ params }: ScreenProps<ErrorParams>) {
  const errorTexts = useTexts('kernel', ERROR_TEXTS)
  const kernel = useKernel()
  const run = useAction()
  const view = params.view ?? kernel.screens.resolveError(params.error)
  return (
    <ScreenLayout
      title={view.title}
      description={view.detail}
      icon={
        <Badge>
          <AlertIcon width={28} height={28} />
        </Badge>
      }
    >
      <div className="portico-actions">
        <Button onClick={() => run(view)} data-autofocus="">
          {view.cta ?? errorTexts.tryAgain}
        </Button>
      </div>
    </ScreenLayout>
  )
}

/**
 * Start-up is still running when a flow starts: a spinner, then — while the API cannot be
 * reached and the kernel keeps retrying — the error with 'Retry now'. The flow moves on by
 * itself once start-up ends (see `startFlow`).
 */
export function LoadingScreen() {
  const kernel = useKernel()
  const ui = useUiAttachment()
  const snap = useSyncExternalStore(ui.subscribe, ui.getSnapshot, ui.getSnapshot)
  const texts = useTexts('ui', UI_TEXTS)
  if (snap.status === 'retrying' && snap.error) {
    const view = kernel.screens.resolveError(snap.error)
    return (
      <ScreenLayout
        title={view.title}
        description={view.detail}
        icon={
          <Badge>
            <AlertIcon width={28} height={28} />
          </Badge>
        }
      >
        <div className="portico-actions" data-portico-startup="retrying">
          <Button onClick={() => kernel.retryReady()} data-autofocus="">
            {texts.retryNow}
          </Button>
        </div>
      </ScreenLayout>
    )
  }
  return (
    <ScreenLayout title={texts.loading} icon={<Spinner />}>
      <div data-portico-startup="loading" />
    </ScreenLayout>
  )
}

/** Allowlist rejection with the app's texts and link (allowlistConfig). */
export function AllowlistRejection() {
  const uiTexts = useTexts('ui', UI_TEXTS)
  const kernel = useKernel()
  const screen = useScreen()
  const a = kernel.config.allowlistConfig
  const link = a.errorCtaLink
  return (
    <ScreenLayout
      title={a.errorTitle || uiTexts.allowlistTitle}
      description={a.errorDetail || uiTexts.allowlistDetail}
      icon={
        <Badge>
          <LockIcon width={28} height={28} />
        </Badge>
      }
    >
      <div className="portico-actions">
        {link ? (
          <a className="portico-button" data-variant="primary" data-full="" href={link} data-autofocus="">
            <span className="portico-button-label">{a.errorCtaText || uiTexts.allowlistCta}</span>
          </a>
        ) : (
          <Button onClick={screen.landing} data-autofocus="">
            {a.errorCtaText || uiTexts.allowlistCta}
          </Button>
        )}
      </div>
    </ScreenLayout>
  )
}

function Rejection({ title, detail, icon }: { title: string; detail?: string; icon: React.ReactNode }) {
  const uiTexts = useTexts('ui', UI_TEXTS)
  const screen = useScreen()
  return (
    <ScreenLayout title={title} description={detail} icon={<Badge>{icon}</Badge>}>
      <div className="portico-actions">
        <Button onClick={screen.landing} data-autofocus="">
          {uiTexts.tryAnotherMethod}
        </Button>
      </div>
    </ScreenLayout>
  )
}

/** 'Account not found' (user_does_not_exist, e.g. a 'no-signup' login). */
export function AccountNotFound({ params }: ScreenProps<ErrorParams>) {
  const uiTexts = useTexts('ui', UI_TEXTS)
  return <Rejection title={uiTexts.accountNotFound} detail={params.error?.message} icon={<UserIcon width={28} height={28} />} />
}

/** 'Unable to sign in': the app's user limit is reached. */
export function UserLimit({ params }: ScreenProps<ErrorParams>) {
  const uiTexts = useTexts('ui', UI_TEXTS)
  return <Rejection title={uiTexts.userLimit} detail={params.error?.message} icon={<UserIcon width={28} height={28} />} />
}

/** Development-mode refusal of new users. */
export function DevelopmentMode({ params }: ScreenProps<ErrorParams>) {
  const uiTexts = useTexts('ui', UI_TEXTS)
  const errorTexts = useTexts('kernel', ERROR_TEXTS)
  return (
    <Rejection
      title={params.view?.title ?? uiTexts.userLimit}
      detail={errorTexts.developmentMode}
      icon={<DocumentIcon width={28} height={28} />}
    />
  )
}

/** In-app browser: 'Could not log in with provider'. */
export function InAppBrowser() {
  const uiTexts = useTexts('ui', UI_TEXTS)
  const errorTexts = useTexts('kernel', ERROR_TEXTS)
  return <Rejection title={uiTexts.inAppBrowserTitle} detail={errorTexts.inAppBrowser} icon={<GlobeIcon width={28} height={28} />} />
}

/**
 * Terms consent, 'One last step' (cannot be closed). Accept: POST /users/me/accept_terms, which
 * answers the new user record; 'No thanks': log out and end the flow.
 */
export function TermsConsent() {
  const uiTexts = useTexts('ui', UI_TEXTS)
  const kernel = useKernel()
  const ui = useUiAttachment()
  const [busy, setBusy] = useState<'accept' | 'decline' | null>(null)
  const [error, setError] = useState<string | null>(null)
  const legal = kernel.config.legal
  const accept = async () => {
    setBusy('accept')
    setError(null)
    try {
      // The answer is the user record itself.
      const user = await kernel.api.post<WireUser>('/users/me/accept_terms', {})
      kernel.session.setUser(user)
      ui.settleConsent(true)
    } catch (e) {
      const view = kernel.screens.resolveError(e)
      setError(view.detail ? `${view.title}: ${view.detail}` : view.title)
      setBusy(null)
    }
  }
  const decline = async () => {
    setBusy('decline')
    ui.settleConsent(false)
    try {
      await kernel.session.logout()
    } finally {
      kernel.screens.dismiss()
    }
  }
  return (
    <ScreenLayout
      title={uiTexts.consentTitle}
      description={uiTexts.consentBody}
      close={false}
      back={false}
      icon={
        <Badge tone="neutral">
          <DocumentIcon width={28} height={28} />
        </Badge>
      }
    >
      {legal.termsAndConditionsUrl || legal.privacyPolicyUrl ? (
        <p className="portico-links">
          {legal.termsAndConditionsUrl ? (
            <a href={legal.termsAndConditionsUrl} target="_blank" rel="noopener noreferrer">
              {uiTexts.viewTerms}
            </a>
          ) : null}
          {legal.privacyPolicyUrl ? (
            <a href={legal.privacyPolicyUrl} target="_blank" rel="noopener noreferrer">
              {uiTexts.viewPrivacy}
            </a>
          ) : null}
        </p>
      ) : null}
      {error ? (
        <p className="portico-field-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="portico-actions portico-actions-row">
        <Button variant="secondary" onClick={decline} loading={busy === 'decline'} disabled={busy !== null}>
          {uiTexts.noThanks}
        </Button>
        <Button onClick={accept} loading={busy === 'accept'} disabled={busy !== null} data-autofocus="">
          {uiTexts.accept}
        </Button>
      </div>
    </ScreenLayout>
  )
}
