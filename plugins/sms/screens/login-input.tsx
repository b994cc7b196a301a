/** The inline landing input (`LoginMethod.input`): the phone form with intent 'login'. */
import type { LoginInputProps } from 'portico/ui'
import { PhoneForm } from './phone-form'

export function SmsLoginInput({ entry }: LoginInputProps) {
  return <PhoneForm intent="login" disableSignup={entry.params?.disableSignup === true} />
}
