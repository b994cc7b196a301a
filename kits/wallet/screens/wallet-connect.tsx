/**
 * Awaiting connection (spec part 1 sections 2 and 4): ask the wallet for its account, then
 * for the signature, then finish the login or link. On a failure the headline and hint
 * say what happened; Retry shows while the error is retryable and fewer than 2 retries were
 * used; after 2 retries the hint becomes 'Unable to connect wallet'.
 *
 * `WalletConnection` is the screen's body for one connector; connectors with a pairing step
 * of their own (WalletConnect's QR code) reuse it through `walletConnectionScreen()` and draw
 * only their waiting screens (`renderWaiting`).
 */
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { Button, CLOSE_DELAY_MS, ScreenLayout, StatusIcon, useCompleteLogin, useKernel, useScreen, useTexts } from 'portico/ui/screens'
import { formatText } from 'portico'
import { isLoginConnector, type ConnectionState, type WalletConnection as Connection, type WalletLoginConnector, connectedWallets } from '../base'
import { createWalletConnection } from '../connect-flow'
import { walletErrorText } from '../errors'
import { WALLET_TEXTS, type WalletTexts } from '../strings'
import { WalletLogo } from './wallet-logo'

/** Connect-only: how long 'Successfully connected' shows before the modal closes (1400 ms, part 1 section 9). */
const CONNECTED_CLOSE_MS = CLOSE_DELAY_MS

export interface WalletConnectionProps {
  /** The connector to connect (undefined: 'Unsupported wallet'). */
  connector: WalletLoginConnector | undefined
  /** Connect-only: the account, no sign-in; the flow closes with the wallet. */
  connectOnly: boolean
  /** The mark inside the status icons (none: the bare status icon). */
  icon?: ReactNode
  /** The wallet's name on the 'Sign with your wallet' screen (default: the connector's). */
  name?: string
  /** The screens while connecting and signing (default: 'Waiting for {wallet}'). */
  renderWaiting?: (state: ConnectionState | null, back: ReactNode, texts: WalletTexts) => ReactNode
  /** Runs after the connection is cancelled when the screen goes. */
  onLeave?: () => void
}

export function WalletConnection({ connector, connectOnly, icon, name, renderWaiting, onLeave }: WalletConnectionProps) {
  const kernel = useKernel()
  const screen = useScreen()
  const S = useTexts('wallet', WALLET_TEXTS)
  const complete = useCompleteLogin()
  const intent = screen.intent === 'link' ? 'link' : 'login'
  const [state, setState] = useState<ConnectionState | null>(null)
  const conn = useRef<Connection | null>(null)
  const errorRef = useRef(screen.error)
  errorRef.current = screen.error
  const leaveRef = useRef(onLeave)
  leaveRef.current = onLeave

  useEffect(() => {
    if (!connector) return
    const c = createWalletConnection(connector, intent, (response, meta) => complete(response, meta), {
      confirmSign: connector.confirmSign,
      connectOnly,
      onError: (e) => {
        // The one rule: an error whose view names a screen leaves this one (allowlist, user
        // limit, account transfer ...); the others show here with Retry.
        const context = { method: methodOf(connector) }
        if (kernel.screens.hasOwnScreen(e, context)) errorRef.current(e, context)
      },
    })
    conn.current = c
    setState(c.getState())
    let closing: ReturnType<typeof setTimeout> | undefined
    const unsubscribe = c.subscribe((st) => {
      setState(st)
      // Connect-only: done once the wallet gave its account; the flow resolves with the wallet.
      if (connectOnly && st.status === 'done' && !closing) {
        closing = setTimeout(() => {
          const wallet = connectedWallets(kernel).find((w) => w.connectorId === connector.id)
          if (kernel.screens.getState().open) kernel.screens.close({ wallet: wallet ?? { address: st.address, connectorId: connector.id } })
        }, CONNECTED_CLOSE_MS)
      }
    })
    void c.start()
    return () => {
      clearTimeout(closing)
      unsubscribe()
      c.cancel()
      leaveRef.current?.()
    }
    // The connection is made once per screen; `complete` is stable.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [connector?.id, intent])

  const back = (
    <Button variant="secondary" onClick={() => screen.back()}>
      {S.useDifferentWallet}
    </Button>
  )

  if (!connector) {
    return (
      <ScreenLayout title={S.couldNotLogIn} description={S.unsupportedWallet} icon={<StatusIcon status="error" />}>
        {back}
      </ScreenLayout>
    )
  }

  const s = state?.status ?? 'connecting'

  if (s === 'error' && state?.error) {
    const text = walletErrorText(state.error, state.phase, state.retriesUsed, S)
    return (
      <ScreenLayout title={text.title} description={text.hint} icon={<StatusIcon status="error">{icon}</StatusIcon>}>
        <div className="portico-actions" data-portico-wallet-status="error">
          {state.canRetry ? <Button onClick={() => void conn.current?.retry()}>{state.phase === 'sign' ? S.retry : S.tryConnectingAgain}</Button> : null}
          {back}
        </div>
      </ScreenLayout>
    )
  }

  if (s === 'done') {
    return (
      <ScreenLayout title={S.connected} icon={<StatusIcon status="success" />}>
        <div data-portico-wallet-status="done" />
      </ScreenLayout>
    )
  }

  if (s === 'ready') {
    return (
      <ScreenLayout title={name ?? connector.name} icon={<StatusIcon status="loading">{icon}</StatusIcon>}>
        <div className="portico-actions" data-portico-wallet-status="ready">
          <Button onClick={() => void conn.current?.sign()}>{S.signWithWallet}</Button>
          {back}
        </div>
      </ScreenLayout>
    )
  }

  if (renderWaiting) return <>{renderWaiting(state, back, S)}</>
  const title = s === 'signing' && state?.connection !== 'switching_to_supported_chain' ? S.signWithWallet : formatText(S.waitingFor, { wallet: connector.name })
  return (
    <ScreenLayout title={title} description={S.checkOtherWindows} icon={<StatusIcon status="loading">{icon}</StatusIcon>}>
      <div className="portico-actions" data-portico-wallet-status={s}>
        {back}
      </div>
    </ScreenLayout>
  )
}

export default function WalletConnectScreen() {
  const kernel = useKernel()
  const screen = useScreen<{ connectorId?: string; connectOnly?: boolean }>()
  const connectorId = screen.params.connectorId
  const connector = kernel.hooks.walletConnectors
    .call([])
    .filter(isLoginConnector)
    .find((c) => c.id === connectorId)
  return (
    <WalletConnection
      connector={connector}
      connectOnly={!!screen.params.connectOnly}
      icon={connector && <WalletLogo src={connector.icon} brand={connector.walletClientType} size={32} />}
    />
  )
}

/** The login method of a connector (the signature method of its chain when it does not say). */
function methodOf(connector: WalletLoginConnector): string {
  return connector.method ?? (connector.chainType === 'solana' ? 'siws' : 'siwe')
}
