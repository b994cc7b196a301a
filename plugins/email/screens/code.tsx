/**
 * 'email-code', awaiting passwordless code (part 1 sections 2 and 4), on the ui's shared
 * `CodeEntryScreen` and the plugin's code flow (six boxes, 'Code sent', 'Resend code' after
 * 30 s, reset 1.4 s after a failed code). The navigator's intent picks authenticate, link or
 * update.
 */
import { CodeEntryScreen, MailIcon, useCompleteLogin, usePlugin, useScreen, useStore, type ScreenProps } from 'portico/ui/screens'

export default function EmailCodeScreen({ params }: ScreenProps<{ email: string }>) {
  const flow = usePlugin('email')
  const state = useStore(flow.state)
  const texts = flow.texts() // texts and messages through the API: see ./field.tsx
  const { intent } = useScreen()
  const complete = useCompleteLogin()
  const email = String(params.email ?? state.destination ?? '')

  const submit = async (code: string, verified: () => void) => void (await flow.submitCode(code, { intent, email, verified, complete }))

  return (
    <CodeEntryScreen
      method="email"
      title={texts.codeTitle}
      description={
        <>
          {texts.codeDescriptionBefore} <span className="portico-emphasis">{email}</span> {texts.codeDescriptionAfter}
        </>
      }
      icon={<MailIcon width={28} height={28} />}
      texts={{ codeSent: texts.codeSent, helpLine: texts.didNotGetEmail, resendCode: texts.resendCode }}
      codeSentAt={state.destination === email ? state.codeSentAt : undefined}
      submit={submit}
      resend={() => (flow.getState().destination === email ? flow.resendCode() : flow.sendCode({ email, intent }))}
      errorMessage={flow.codeErrorMessage}
    />
  )
}
