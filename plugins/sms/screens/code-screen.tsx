/**
 * The 'sms-code' screen (part 1 sections 2, 4, 5, 8, 9), on the ui's shared
 * `CodeEntryScreen`: six boxes, 'Code sent' and 'Resend code' after 30 s, a help line,
 * success and fail states. A failed code shows 'Invalid or expired verification code' (or the
 * server's message for cannot-link-more, else 'Issue verifying code') and the boxes reset 1.4 s
 * later. Errors with a screen of their own (link conflict, allowlist, region, ...) go there.
 */
import { useSyncExternalStore } from 'react'
import { parsePhoneNumberFromString } from 'libphonenumber-js'
import { toPorticoError } from 'portico'
import { CodeEntryScreen, icons, useCompleteLogin, useKernel, useScreen } from 'portico/ui'
import { codeErrorMessage, showsOwnScreen } from '../errors'
import { smsFlow } from '../flow'
import { SMS_TEXTS } from '../strings'

/** Formats an E.164 number for display ('+1 415 555 0100'). */
const pretty = (number: string) => parsePhoneNumberFromString(number)?.formatInternational() ?? number

export function SmsCodeScreen() {
  const kernel = useKernel()
  const flow = smsFlow(kernel)
  const state = useSyncExternalStore(flow.subscribe, flow.getState, flow.getState)
  const { intent, params } = useScreen<{ disableSignup?: boolean }>()
  const complete = useCompleteLogin()
  const shown = state.phoneNumber ? pretty(state.phoneNumber) : ''

  const submit = async (code: string, verified: () => void) => {
    await flow.submitCode(code, {
      intent,
      disableSignup: params.disableSignup === true,
      complete: async (res, meta) => {
        verified()
        return complete(res, meta)
      },
    })
  }

  return (
    <CodeEntryScreen
      method="sms"
      title={SMS_TEXTS.codeHeading}
      description={
        shown ? (
          <>
            {SMS_TEXTS.codeSentToBefore} <span className="portico-emphasis">{shown}</span> {SMS_TEXTS.codeSentToAfter}
          </>
        ) : undefined
      }
      icon={<icons.PhoneIcon width={28} height={28} />}
      texts={{ codeSent: SMS_TEXTS.codeSent, helpLine: SMS_TEXTS.helpLine, resendCode: SMS_TEXTS.resendCode, success: SMS_TEXTS.success }}
      submit={submit}
      resend={() => flow.resendCode().then(() => undefined)}
      errorMessage={(e) => codeErrorMessage(toPorticoError(e))}
      hasOwnScreen={(e) => showsOwnScreen(toPorticoError(e))}
    />
  )
}

export default SmsCodeScreen
