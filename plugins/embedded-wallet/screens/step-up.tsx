/**
 * 'embedded-wallet-step-up' (issue 26): a new device confirms it's the user before it may
 * recover the wallet: 'We sent a code to a•••@example.com to confirm it’s you.', the shared
 * six-box code entry (resend after the cooldown, the server's clear text when a code is wrong
 * or void). On success the flow closes and the wallet operation goes on; × ends it.
 */
import { CodeEntryScreen, MailIcon, PhoneIcon, useScreen, useTexts, type ScreenProps } from 'portico/ui/screens'
import { EMBEDDED_WALLET } from '../codes'
import type { StepUpParams } from '../engine'
import { EMBEDDED_WALLET_TEXTS } from '../strings'

export default function StepUpScreen({ params }: ScreenProps<StepUpParams & Record<string, unknown>>) {
  const T = useTexts(EMBEDDED_WALLET, EMBEDDED_WALLET_TEXTS)
  const screen = useScreen()
  const [before, after] = T.stepUpSent.split('{to}')
  const sms = params.method === 'sms'
  return (
    <CodeEntryScreen
      method={EMBEDDED_WALLET}
      title={T.stepUpTitle}
      description={
        <>
          {before}
          <span className="portico-emphasis">{params.to}</span>
          {after}
        </>
      }
      icon={sms ? <PhoneIcon width={28} height={28} /> : <MailIcon width={28} height={28} />}
      texts={{ codeSent: T.codeSent, helpLine: sms ? T.didNotGetSms : T.didNotGetEmail, resendCode: T.resendCode }}
      submit={async (code, verified) => {
        await params.submit(code)
        verified()
        screen.close({ verified: true })
      }}
      resend={() => params.resend()}
      errorMessage={(e) => (e instanceof Error && e.message ? e.message : T.tryAgain)}
      hasOwnScreen={() => false}
    />
  )
}
