/**
 * Demo controls for MFA (portico/plugins/mfa and its method plugins): open the enrolment
 * modal, and ask for a sensitive action the way the embedded wallet does (the kernel's
 * `sensitiveAction` hook), so the 'Verify your identity' screen can be tried without a wallet.
 */
import { useEffect } from 'react'
import type { PorticoError } from 'portico'
import { usePortico } from 'portico/ui'
import { useMfaEnrollment } from 'portico/plugins/mfa'

/** The app's enrolment success callback (plugins.ts) reports through this event. */
export const MFA_ENROLLED_EVENT = 'portico-demo:mfa-enrolled'

export function MfaExtras({ onResult }: { onResult: (text: string) => void }) {
  const { authenticated, kernel } = usePortico()
  const { showMfaEnrollmentModal } = useMfaEnrollment()
  useEffect(() => {
    const on = (e: Event) => onResult(`complete: mfa enrolled ${(e as CustomEvent<{ method: string }>).detail.method}`)
    window.addEventListener(MFA_ENROLLED_EVENT, on)
    return () => window.removeEventListener(MFA_ENROLLED_EVENT, on)
  }, [onResult])
  if (!authenticated) return null
  const sensitive = () =>
    kernel.hooks.sensitiveAction
      .promise({ action: 'sign_message', user: kernel.session.user })
      .then(() => onResult('complete: sensitive action allowed'), (e: PorticoError) => onResult(`error: ${e.code}`))
  return (
    <section className="demo-actions" aria-label="MFA" data-testid="mfa-extras">
      <button onClick={() => void showMfaEnrollmentModal().catch((e: PorticoError) => onResult(`error: ${e.code}`))}>MFA</button>
      <button onClick={() => void sensitive()}>Sensitive action</button>
    </section>
  )
}
