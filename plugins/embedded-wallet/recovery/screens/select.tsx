/**
 * Recovery method selection (spec part 2 section 2): Google Drive, Apple iCloud and password,
 * the cloud method already in use excluded. A cloud row opens its popup inside the click
 * (browsers block later ones) and starts the backup; the password row opens the four-step
 * flow, whose first back button returns here.
 */
import type { ReactNode } from 'react'
import { ListButton, ScreenLayout, StatusIcon, icons, useScreen, useTexts, type ScreenProps } from 'portico/ui/screens'
import type { RecoveryController } from '../controller'
import type { UserOwnedMethod } from '../machine'
import type { OnDone } from '../finish'
import { RECOVERY_SCREENS } from '../ids'
import { RECOVERY_TEXTS } from '../strings'

export interface SelectParams extends Record<string, unknown> {
  controller: RecoveryController
  options: UserOwnedMethod[]
  /** Creating the wallet (requireUserOwnedRecoveryOnCreate) rather than changing its recovery. */
  creating?: boolean
  onDone?: OnDone
}

export default function RecoverySelectScreen({ params }: ScreenProps<SelectParams>) {
  const T = useTexts('embedded-wallet', RECOVERY_TEXTS)
  const screen = useScreen()
  const c = params.controller
  const label: Record<UserOwnedMethod, string> = { 'google-drive': T.googleDrive, icloud: T.icloud, 'user-passcode': T.password }
  const icon: Record<UserOwnedMethod, ReactNode> = {
    'google-drive': <icons.GlobeIcon width={20} height={20} />,
    icloud: <icons.GlobeIcon width={20} height={20} />,
    'user-passcode': <icons.LockIcon width={20} height={20} />,
  }
  const choose = (m: UserOwnedMethod) => {
    if (m === 'user-passcode') {
      screen.open(RECOVERY_SCREENS.password, {
        controller: c,
        purpose: params.creating ? 'create' : 'set',
        mode: params.creating || c.currentMethod() !== 'user-passcode' ? 'create' : 'update',
        fromSelection: true,
        initiatedBy: 'user',
        onDone: params.onDone,
      })
      return
    }
    const action = params.creating ? 'create' : 'backup'
    const run = c.runCloud(m, action, c.openPopup())
    run.catch(() => {})
    screen.open(RECOVERY_SCREENS.cloud, { controller: c, method: m, action, run, onDone: params.onDone })
  }
  return (
    <ScreenLayout
      title={T.selectTitle}
      description={T.selectDescription}
      icon={<StatusIcon status="idle" label="recovery"><icons.KeyIcon width={28} height={28} /></StatusIcon>}
    >
      <div className="portico-list" role="list">
        {params.options.map((m) => (
          <div role="listitem" key={m}>
            <ListButton icon={icon[m]} label={label[m]} method={m} onClick={() => choose(m)} />
          </div>
        ))}
      </div>
    </ScreenLayout>
  )
}
