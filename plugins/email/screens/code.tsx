/**
 * 'email-code', awaiting passwordless code (part 1 sections 2 and 4), on the ui's shared
 * `CodeEntryScreen` (six boxes, 'Code sent', 'Resend code' after 30 s, reset 1.4 s after a
 * failed code). The navigator's intent picks authenticate, link or update.
 */
import { CodeEntryScreen, icons, useCompleteLogin, useKernel, useScreen, type ScreenProps } from 'portico/ui'
import { authenticateEmail, initEmail, linkEmail, updateEmail } from '../calls'
import { codeErrorMessage } from '../errors'
import { EMAIL_TEXTS } from '../strings'
import { emailOptions } from '../options'

export default function EmailCodeScreen({ params }: ScreenProps<{ email: string }>) {
  const kernel = useKernel()
  const { intent } = useScreen()
  const complete = useCompleteLogin()
  const email = String(params.email ?? '')

  const submit = async (code: string, verified: () => void) => {
    let res
    if (intent === 'link') res = await linkEmail(kernel.api, { email, code })
    else if (intent === 'update') {
      const oldAddress = kernel.session.user?.email?.address
      if (!oldAddress) throw new Error(EMAIL_TEXTS.updateRequiresEmail)
      res = await updateEmail(kernel.api, { oldAddress, newAddress: email, code })
    } else {
      const mode = emailOptions(kernel).disableSignup ? 'no-signup' : 'login-or-sign-up'
      res = await authenticateEmail(kernel.api, { email, code, mode })
    }
    verified()
    await complete(res, { method: 'email', intent })
  }

  return (
    <CodeEntryScreen
      method="email"
      title={EMAIL_TEXTS.codeTitle}
      description={
        <>
          {EMAIL_TEXTS.codeDescriptionBefore} <span className="portico-emphasis">{email}</span> {EMAIL_TEXTS.codeDescriptionAfter}
        </>
      }
      icon={<icons.MailIcon width={28} height={28} />}
      texts={{ codeSent: EMAIL_TEXTS.codeSent, helpLine: EMAIL_TEXTS.didNotGetEmail, resendCode: EMAIL_TEXTS.resendCode }}
      submit={submit}
      resend={() => initEmail(kernel.api, email).then(() => undefined)}
      errorMessage={codeErrorMessage}
    />
  )
}
