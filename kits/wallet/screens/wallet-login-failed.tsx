/**
 * Login failed after a wallet redirect (spec part 1 section 2, part 2 section 8): 'Could not
 * connect with wallet', 'Try again' (the interstitial again) and 'Cancel' (back to the list,
 * or closed when there is none). Params: `{ connectorId?, brand? }`.
 */
import { Button, ScreenLayout, StatusIcon, useKernel, useScreen, useTexts } from 'portico/ui/screens'
import { isLoginConnector, WALLET_LIST_SCREEN, WALLET_REDIRECT_SCREEN } from '../base'
import { WALLET_TEXTS } from '../strings'
import { WalletLogo } from './wallet-logo'

export default function WalletLoginFailedScreen() {
  const kernel = useKernel()
  const screen = useScreen<{ connectorId?: string; brand?: string; connectOnly?: boolean }>()
  const S = useTexts('wallet', WALLET_TEXTS)
  const connector = kernel.hooks.walletConnectors
    .call([])
    .filter(isLoginConnector)
    .find((c) => c.id === screen.params.connectorId)
  const cancel = () => {
    const stack = kernel.screens.getState().stack
    if (stack.some((s) => s.id === WALLET_LIST_SCREEN)) {
      while (kernel.screens.getState().open && kernel.screens.getState().current?.id !== WALLET_LIST_SCREEN) kernel.screens.back()
    } else screen.dismiss()
  }
  return (
    <ScreenLayout
      title={S.couldNotConnect}
      icon={<StatusIcon status="error"><WalletLogo src={connector?.icon} brand={connector?.walletClientType ?? screen.params.brand} size={32} /></StatusIcon>}
    >
      <div className="portico-actions" data-portico-wallet-status="failed">
        <Button onClick={() => screen.replace(WALLET_REDIRECT_SCREEN, { ...screen.params })}>{S.tryAgain}</Button>
        <Button variant="secondary" onClick={cancel}>
          {S.cancel}
        </Button>
      </div>
    </ScreenLayout>
  )
}
