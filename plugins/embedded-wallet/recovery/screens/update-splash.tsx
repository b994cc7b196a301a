/**
 * The update splash (spec part 2 section 2, 'Password update and an update splash also
 * exist'): shown before the password update of a wallet that already has a password; skipped
 * when the user is resetting. Continue opens the four-step flow in update mode.
 */
import { Button, ScreenLayout, StatusIcon, icons, useScreen, useTexts, type ScreenProps } from 'portico/ui/screens'
import type { RecoveryController } from '../controller'
import { finisher, type OnDone } from '../finish'
import { RECOVERY_SCREENS } from '../ids'
import { RECOVERY_TEXTS } from '../strings'

export interface UpdateSplashParams extends Record<string, unknown> {
  controller: RecoveryController
  /** The password flow's params (purpose 'set', mode 'update'). */
  password: Record<string, unknown>
  onDone?: OnDone
}

export default function UpdateSplashScreen({ params }: ScreenProps<UpdateSplashParams>) {
  const T = useTexts('embedded-wallet', RECOVERY_TEXTS)
  const screen = useScreen()
  return (
    <ScreenLayout
      title={T.splashTitle}
      description={T.splashDescription}
      icon={
        <StatusIcon status="idle" label="password">
          <icons.LockIcon width={28} height={28} />
        </StatusIcon>
      }
    >
      <div className="portico-actions" data-step="splash">
        <Button onClick={() => screen.replace(RECOVERY_SCREENS.password, { ...params.password, controller: params.controller, onDone: params.onDone })}>{T.splashContinue}</Button>
        <Button variant="ghost" onClick={() => finisher(screen, params.onDone).cancel()}>
          {T.cancel}
        </Button>
      </div>
    </ScreenLayout>
  )
}
