/**
 * 'mfa-methods' — 'Choose a verification method' (part 2 sections 2 and 5): the methods this
 * app enables (their plugins are set up), Authenticator app labelled 'Recommended', each
 * method the user has marked 'Enabled' with a remove control, SMS 'Disabled' for a user who
 * logs in with SMS. Adding or removing asks for a verification first when the user already
 * has a method.
 */
import { useState } from 'react'
import { formatText } from 'portico'
import { Button, Chip, ListButton, ScreenLayout, icons, useKernel, usePlugin, useScreen, useTexts, useUser } from 'portico/ui/screens'
import { MFA_SCREENS, methodPluginId, type MfaType } from 'portico/kits/mfa'
import { MFA_METHOD_TYPES } from '../state'
import { MFA_TEXTS } from '../strings'
import { MethodIcon, methodLabel } from './verify'

export default function MfaMethodsScreen() {
  const kernel = useKernel()
  const api = usePlugin('mfa')
  const screen = useScreen()
  const T = useTexts('mfa', MFA_TEXTS)
  const { user } = useUser()
  const [error, setError] = useState<string | null>(null)
  const available = MFA_METHOD_TYPES.filter((t) => kernel.hasPlugin(methodPluginId(t)))
  const enabled = new Set((user?.mfaMethods ?? []).map((m) => m.type))
  const smsAuth = (user?.linkedAccounts ?? []).some((a) => a.type === 'phone')

  const add = async (type: MfaType) => {
    setError(null)
    try {
      await api.requireFresh()
    } catch {
      return
    }
    screen.open(methodPluginId(type))
  }

  return (
    <ScreenLayout title={T.chooseTitle} description={error ?? T.chooseDescription} icon={<icons.LockIcon width={28} height={28} />}>
      <ul className="portico-list" aria-label={T.chooseTitle} data-mfa-methods="">
        {available.map((type) => {
          const label = methodLabel(type, T)
          if (enabled.has(type)) {
            return (
              <li key={type} className="portico-list-button" data-mfa-method={type} data-mfa-enabled="">
                <span className="portico-list-icon" aria-hidden="true">
                  <MethodIcon type={type} />
                </span>
                <span className="portico-list-label">{label}</span>
                <Chip tone="success">{T.enabled}</Chip>
                <Button
                  variant="ghost"
                  fullWidth={false}
                  aria-label={formatText(T.removeLabel, { method: label })}
                  onClick={() => screen.open(MFA_SCREENS.remove, { type })}
                >
                  <icons.CloseIcon width={16} height={16} />
                </Button>
              </li>
            )
          }
          const disabled = type === 'sms' && smsAuth
          return (
            <li key={type} data-mfa-method={type}>
              <ListButton
                method={type}
                icon={<MethodIcon type={type} />}
                label={
                  type === 'totp' && !disabled ? (
                    // The chip under the name: 'Authenticator app' and 'Recommended' do not fit one 312 px row.
                    <>
                      {label}
                      <br />
                      <Chip tone="accent">{T.recommended}</Chip>
                    </>
                  ) : (
                    label
                  )
                }
                disabled={disabled}
                chip={disabled ? <Chip>{T.disabled}</Chip> : undefined}
                onClick={() => void add(type)}
              />
            </li>
          )
        })}
      </ul>
    </ScreenLayout>
  )
}
