/**
 * The inline landing input (`LoginMethod.input`): the phone form with intent 'login'. The form
 * needs libphonenumber-js, so it loads lazily: `preloadPhoneForm` (the entry's `preload`, which
 * the UI runs at idle with the landing) loads it ahead, and the landing then renders it at once.
 * Until it has loaded, a placeholder of the same size (the field's box and the consent line)
 * holds its place, so nothing moves when it arrives.
 */
import { lazy, Suspense, type ComponentType } from 'react'
import { formatText } from 'portico'
import { useKernel, type LoginInputProps } from 'portico/ui'
import type { PhoneFormProps } from './phone-form'

let loaded: ComponentType<PhoneFormProps> | null = null
let pending: Promise<ComponentType<PhoneFormProps>> | null = null

/** Load the phone form's chunk once (with libphonenumber-js). */
export function preloadPhoneForm(): Promise<ComponentType<PhoneFormProps>> {
  if (loaded) return Promise.resolve(loaded)
  pending ??= import('./phone-form').then(
    (m) => (loaded = m.PhoneForm),
    (e) => {
      pending = null // retried by the next render or preload
      throw e
    },
  )
  return pending
}

const LazyPhoneForm = lazy(async () => ({ default: await preloadPhoneForm() }))

function Placeholder() {
  const kernel = useKernel()
  return (
    <div className="portico-form portico-sms-form" data-portico-sms-placeholder="" aria-busy="true">
      <div className="portico-field">
        <div className="portico-input-wrap portico-phone" />
      </div>
      <p className="portico-field-hint portico-sms-consent">{formatText(kernel.texts<{ consent: string }>('sms').consent, { app: kernel.config.name })}</p>
    </div>
  )
}

export function SmsLoginInput({ entry }: LoginInputProps) {
  const disableSignup = entry.params?.disableSignup === true
  // Preloaded: render the form itself, without suspending.
  const Form = loaded
  if (Form) return <Form intent="login" disableSignup={disableSignup} />
  return (
    <Suspense fallback={<Placeholder />}>
      <LazyPhoneForm intent="login" disableSignup={disableSignup} />
    </Suspense>
  )
}
