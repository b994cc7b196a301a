/**
 * 'passkey-choose': 'Create new account' or 'Log in with a passkey' (part 1 section 2). Only
 * when the app enables passkey sign-up; otherwise it hands over to the login wait at once. A
 * link flow (`useLinkAccount().link('passkey')`) goes to the link screen.
 */
import { useEffect } from 'react'
import { Button, ScreenLayout, icons, useKernel, usePlugin, useScreen, useTexts } from 'portico/ui/screens'
import { PASSKEY } from '../errors'
import { PASSKEY_TEXTS } from '../strings'

export default function PasskeyChooseScreen() {
  const kernel = useKernel()
  const api = usePlugin('passkey')
  const screen = useScreen()
  const T = useTexts(PASSKEY, PASSKEY_TEXTS)
  const signup = kernel.config.passkeysForSignupEnabled
  const redirect = screen.intent === 'link' ? 'passkey-link' : !signup ? 'passkey-wait' : null

  useEffect(() => {
    if (redirect) screen.replace(redirect, redirect === 'passkey-wait' ? { action: 'login' } : {})
    else api.preload()
  }, [redirect, screen, api])
  if (redirect) return null

  return (
    <ScreenLayout title={T.chooseTitle} description={T.chooseDescription} icon={<icons.KeyIcon width={28} height={28} />}>
      <div className="portico-actions">
        <Button onClick={() => screen.open('passkey-wait', { action: 'signup' })}>{T.createAccount}</Button>
        <Button variant="secondary" onClick={() => screen.open('passkey-wait', { action: 'login' })}>
          {T.logInWithPasskey}
        </Button>
      </div>
    </ScreenLayout>
  )
}
