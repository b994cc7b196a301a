/**
 * The wallet list (spec part 1 section 2): every login connector registered through the
 * `walletConnectors` hook (Ethereum from `siwe`, Solana from `siws`, Coinbase, Phantom's
 * mobile deep link ...), filtered and ordered by the app's `walletList` and
 * `walletChainType`, each with its name, icon and a 'Connect' or 'Recent' chip, plus 'Solana'
 * on Solana-adapter wallets. More than 4 wallets: 3 show and a 'More wallets' row opens the
 * rest. Params: `{ connectOnly?: boolean }` (the connect-only landing and authenticated
 * variants: connect a wallet without signing in).
 */
import { useEffect, useMemo, useState } from 'react'
import { Chip, ListButton, ScreenLayout, Spinner, useKernel, useScreen, useTexts } from 'portico/ui/screens'
import { brandLinks } from '../brand-links'
import { brandName, mobilePlatform, isLoginConnector, type WalletLoginConnector, walletChains, CONNECTORS_CHANGED, WALLET_CONNECT_SCREEN, WALLET_INSTALL_SCREEN, WALLET_REDIRECT_SCREEN, CONNECTOR_INIT_GRACE_MS, PROVIDER_DETECTION_TIMEOUT_MS } from '../base'
import { walletRows, type WalletRow } from '../list'
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

const methodOf = (c: WalletLoginConnector) => c.method ?? (c.chainType === 'solana' ? 'siws' : 'siwe')

export default function WalletListScreen() {
  const kernel = useKernel()
  const screen = useScreen<{ connectOnly?: boolean }>()
  const S = useTexts('wallet', WALLET_TEXTS)
  const connectOnly = !!screen.params.connectOnly
  const [version, setVersion] = useState(0)
  const [expanded, setExpanded] = useState(false)
  useEffect(() => {
    const onChange = () => setVersion((v) => v + 1)
    kernel.events.on(CONNECTORS_CHANGED, onChange)
    return () => kernel.events.off(CONNECTORS_CHANGED, onChange)
  }, [kernel])

  // Connector initialisation grace (1.5 s): connectors still initialising show after it or
  // once they are ready, whichever comes first.
  const [grace, setGrace] = useState(true)
  useEffect(() => {
    const t = setTimeout(() => setGrace(false), CONNECTOR_INIT_GRACE_MS)
    return () => clearTimeout(t)
  }, [])

  const { appearance } = kernel.config
  const recent = kernel.recentLogin()
  const { rows, initialising } = useMemo(() => {
    const all = kernel.hooks.walletConnectors.call([]).filter(isLoginConnector)
    const ready = all.filter((c) => c.status?.().initialized !== false)
    const isRecent = (c: WalletLoginConnector) =>
      !!recent &&
      recent.method === methodOf(c) &&
      recent.walletClientType === c.walletClientType &&
      (recent.chainType ?? c.chainType) === c.chainType
    return {
      rows: walletRows(ready, { walletList: appearance.walletList, chains: walletChains(appearance.walletChainType), isRecent }),
      initialising: ready.length < all.length,
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [kernel, version, recent?.walletClientType, recent?.method, appearance.walletChainType, appearance.walletList])

  const [detecting, setDetecting] = useState(() => detectionLeft() > 0)
  useEffect(() => {
    if (!detecting) return
    const t = setTimeout(() => setDetecting(false), detectionLeft())
    return () => clearTimeout(t)
  }, [detecting])

  const { shown, more } = visibleWallets(rows, expanded)
  const title = connectOnly
    ? kernel.session.authenticated
      ? S.connectAnotherTitle
      : S.connectTitle
    : screen.intent === 'link'
      ? S.linkTitle
      : appearance.landingHeader
  const chains = walletChains(appearance.walletChainType)
  const noWallets = chains.has('ethereum') ? S.noWalletsEthereum : S.noWalletsSolana
  const mobile = mobilePlatform() !== null

  const pick = (row: WalletRow) => {
    if (row.kind === 'brand') {
      if (mobile && brandLinks(row.brand.id).browseUrl) screen.open(WALLET_REDIRECT_SCREEN, { brand: row.brand.id })
      else screen.open(WALLET_INSTALL_SCREEN, { brand: row.brand.id })
      return
    }
    const c = row.connector
    if (c.redirect) screen.open(WALLET_REDIRECT_SCREEN, { connectorId: c.id, connectOnly })
    else screen.open(c.screen ?? WALLET_CONNECT_SCREEN, { connectorId: c.id, connectOnly })
  }

  return (
    <ScreenLayout title={title}>
      <ul className="portico-list" data-portico-wallet-list="" data-portico-connect-only={connectOnly ? '' : undefined}>
        {shown.map((row) => {
          const id = row.kind === 'brand' ? `brand:${row.brand.id}` : row.connector.id
          const label = row.kind === 'brand' ? brandName(row.brand, kernel.config.name) : row.connector.name
          const brand = row.kind === 'brand' ? row.brand.id : row.connector.walletClientType
          const icon = row.kind === 'brand' ? undefined : row.connector.icon
          const solana = row.kind === 'connector' && row.connector.connectorType === 'solana_adapter'
          return (
            <li key={id}>
              <ListButton
                icon={<WalletLogo src={icon} brand={brand} />}
                label={label}
                method={`wallet:${id}`}
                onClick={() => pick(row)}
                chip={
                  <>
                    {solana ? <Chip>{S.solana}</Chip> : null}
                    {row.recent ? <Chip tone="accent">{S.recent}</Chip> : <Chip>{S.connect}</Chip>}
                  </>
                }
              />
            </li>
          )
        })}
        {more ? (
          <li>
            <ListButton label={S.moreWallets} method="wallet:more" onClick={() => setExpanded(true)} />
          </li>
        ) : null}
      </ul>
      {rows.length === 0 ? (
        detecting || (grace && initialising) ? (
          <Spinner />
        ) : (
          <p className="portico-description" data-portico-no-wallets>
            {noWallets}
          </p>
        )
      ) : grace && initialising ? (
        <Spinner />
      ) : null}
    </ScreenLayout>
  )
}
