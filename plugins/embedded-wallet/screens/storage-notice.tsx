/**
 * 'embedded-wallet-storage' (issue 26, 'Storage blocked or partitioned'): shown once, after a
 * wallet landed on this device while the browser blocks or partitions the wallet frame's
 * storage on this site. The wallet works until the tab closes; next time it is restored through
 * recovery. 'Got it', × and Escape close it.
 */
import { Button, ScreenLayout, StatusIcon, icons, useScreen, useTexts } from 'portico/ui/screens'
import { EMBEDDED_WALLET } from '../codes'
import { EMBEDDED_WALLET_TEXTS } from '../strings'

export default function EmbeddedWalletStorageNotice() {
  const T = useTexts(EMBEDDED_WALLET, EMBEDDED_WALLET_TEXTS)
  const screen = useScreen()
  return (
    <ScreenLayout
      title={T.storageSessionTitle}
      back={false}
      description={<span data-testid="wallet-storage-notice">{T.storageSession}</span>}
      icon={
        <StatusIcon status="idle" label="wallet">
          <icons.WalletIcon width={28} height={28} />
        </StatusIcon>
      }
    >
      <div className="portico-actions">
        <Button onClick={() => screen.close()}>{T.gotIt}</Button>
      </div>
    </ScreenLayout>
  )
}
