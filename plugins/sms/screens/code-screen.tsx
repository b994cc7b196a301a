/**
 * The 'sms-code' screen (part 1 sections 2, 4, 5, 8, 9), on the ui's shared
 * `CodeEntryScreen` and the plugin's code flow: six boxes, 'Code sent' and 'Resend code' after
 * 30 s, a help line, success and fail states. A failed code shows 'Invalid or expired
 * verification code' (or the server's message for cannot-link-more, else 'Issue verifying
 * code') and the boxes reset 1.4 s later. Errors with a screen of their own (link conflict,
 * allowlist, region, ...) go there (`hasOwnScreen`).
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js'
import { CodeEntryScreen, icons, useCompleteLogin, usePlugin, useScreen, useStore, useTexts } from 'portico/ui/screens'
import { codeErrorMessage } from '../errors'
import { SMS_TEXTS } from '../strings'

/** Formats an E.164 number for display ('+1 415 555 0100'). */
const pretty = (number: string) => parsePhoneNumberFromString(number)?.formatInternational() ?? number

export function SmsCodeScreen() {
  const flow = usePlugin('sms')
  const state = useStore(flow.state)
  const texts = useTexts('sms', SMS_TEXTS)
  const { intent, params } = useScreen<{ disableSignup?: boolean }>()
  const complete = useCompleteLogin()
  const shown = state.destination ? pretty(state.destination) : ''

  const submit = async (code: string, verified: () => void) =>
    void (await flow.submitCode(code, { intent, disableSignup: params.disableSignup === true ? true : undefined, verified, complete }))

  return (
    <CodeEntryScreen
      method="sms"
      title={texts.codeHeading}
      description={
        shown ? (
          <>
            {texts.codeSentToBefore} <span className="portico-emphasis">{shown}</span> {texts.codeSentToAfter}
          </>
        ) : undefined
      }
      icon={<icons.PhoneIcon width={28} height={28} />}
      texts={{ codeSent: texts.codeSent, helpLine: texts.helpLine, resendCode: texts.resendCode, success: texts.success }}
      codeSentAt={state.codeSentAt}
      submit={submit}
      resend={() => flow.resendCode()}
      errorMessage={(e) => codeErrorMessage(e, texts)}
    />
  )
}

export default SmsCodeScreen
