/**
 * The 'sms-phone' screen: the phone form on its own screen, for the landing row (when another
 * input is the inline one) and for linking or updating a phone number (intent 'link' / 'update').
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js'
import { ScreenLayout, useKernel, useScreen, useTexts } from 'portico/ui/screens'
import { SMS_TEXTS } from '../strings'
import { PhoneForm } from './phone-form'

export function SmsPhoneScreen() {
  const kernel = useKernel()
  const texts = useTexts('sms', SMS_TEXTS)
  const { intent, params } = useScreen<{ disableSignup?: boolean }>()
  const title = intent === 'link' ? texts.linkHeading : intent === 'update' ? texts.updateHeading : texts.loginHeading
  const number = intent === 'update' ? kernel.session.user?.phone?.number : undefined
  const current = number ? (parsePhoneNumberFromString(number)?.formatInternational() ?? number) : undefined
  return (
    <ScreenLayout title={title} description={current ?? undefined}>
      <PhoneForm intent={intent} disableSignup={params.disableSignup === true} autoFocus />
    </ScreenLayout>
  )
}

export default SmsPhoneScreen
