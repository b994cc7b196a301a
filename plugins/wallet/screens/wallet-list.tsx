/**
 * The wallet list (spec part 1 section 2): every login connector registered through the
 * `walletConnectors` hook (Ethereum from `siwe`, Solana from `siws`), each with its name,
 * icon and a 'Connect' or 'Recent' chip, plus 'Solana' on Solana-adapter wallets. More than
 * 4 wallets: 3 show and a 'More wallets' row opens the rest.
 */
import { useEffect, useMemo, useState } from 'react'
import { Chip, ListButton, ScreenLayout, Spinner, useKernel, useScreen, useTexts } from 'portico/ui'
import { isLoginConnector, type WalletLoginConnector } from '../connection'
import { walletChains } from '../chains'
import { CONNECTORS_CHANGED, WALLET_CONNECT_SCREEN } from '../ids'
import { PROVIDER_DETECTION_TIMEOUT_MS } from '../limits'
import { WALLET_TEXTS } from '../strings'
import { WalletLogo } from './wallet-logo'

/** Wallets shown before 'More wallets' when there are more than `OVERFLOW_AT`. */
export const OVERFLOW_VISIBLE = 3
export const OVERFLOW_AT = 4

/** Which rows show: all when 4 or fewer, else the first 3 and 'More wallets'. */
export function visibleWallets<T>(all: T[], expanded: boolean): { shown: T[]; more: boolean } {
  if (expanded || all.length <= OVERFLOW_AT) return { shown: all, more: false }
  return { shown: all.slice(0, OVERFLOW_VISIBLE), more: true }
}

/** Time left of the provider detection window, counted from page load. */
function detectionLeft(): number {
  const now = typeof performance !== 'undefined' ? performance.now() : PROVIDER_DETECTION_TIMEOUT_MS
  return Math.max(0, PROVIDER_DETECTION_TIMEOUT_MS - now)
}

export default function WalletListScreen() {
  const kernel = useKernel()
  const screen = useScreen()
  const S = useTexts('wallet', WALLET_TEXTS)
  const [version, setVersion] = useState(0)
  const [expanded, setExpanded] = useState(false)
  useEffect(() => {
    const onChange = () => setVersion((v) => v + 1)
    kernel.events.on(CONNECTORS_CHANGED, onChange)
    return () => kernel.events.off(CONNECTORS_CHANGED, onChange)
  }, [kernel])

  const chains = walletChains(kernel.config.appearance.walletChainType)
  const recent = kernel.recentLogin()
  const connectors = useMemo(() => {
    const list = kernel.hooks.walletConnectors.call([]).filter(isLoginConnector).filter((c) => chains.has(c.chainType))
    const isRecent = (c: WalletLoginConnector) =>
      !!recent &&
      recent.method === (c.method ?? (c.chainType === 'solana' ? 'siws' : 'siwe')) &&
      recent.walletClientType === c.walletClientType &&
      (recent.chainType ?? c.chainType) === c.chainType
    return list.map((c) => ({ c, recent: isRecent(c) })).sort((a, b) => Number(b.recent) - Number(a.recent))
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [kernel, version, recent?.walletClientType, recent?.method, kernel.config.appearance.walletChainType])

  const [detecting, setDetecting] = useState(() => detectionLeft() > 0)
  useEffect(() => {
    if (!detecting) return
    const t = setTimeout(() => setDetecting(false), detectionLeft())
    return () => clearTimeout(t)
  }, [detecting])

  const { shown, more } = visibleWallets(connectors, expanded)
  const title = screen.intent === 'link' ? S.linkTitle : kernel.config.appearance.landingHeader
  const noWallets = chains.has('ethereum') ? S.noWalletsEthereum : S.noWalletsSolana

  return (
    <ScreenLayout title={title}>
      <ul className="portico-list" data-portico-wallet-list="">
        {shown.map(({ c, recent: isRecent }) => (
          <li key={c.id}>
            <ListButton
              icon={<WalletLogo src={c.icon} />}
              label={c.name}
              method={`wallet:${c.id}`}
              onClick={() => screen.open(c.screen ?? WALLET_CONNECT_SCREEN, { connectorId: c.id })}
              chip={
                <>
                  {c.connectorType === 'solana_adapter' ? <Chip>{S.solana}</Chip> : null}
                  {isRecent ? <Chip tone="accent">{S.recent}</Chip> : <Chip>{S.connect}</Chip>}
                </>
              }
            />
          </li>
        ))}
        {more ? (
          <li>
            <ListButton label={S.moreWallets} method="wallet:more" onClick={() => setExpanded(true)} />
          </li>
        ) : null}
      </ul>
      {connectors.length === 0 ? (
        detecting ? (
          <Spinner />
        ) : (
          <p className="portico-description" data-portico-no-wallets>
            {noWallets}
          </p>
        )
      ) : null}
    </ScreenLayout>
  )
}
