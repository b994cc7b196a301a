/**
 * 'bridge-transfer': 'Transfer from another network'. Connects the first Ethereum wallet of the
 * wallet base, reads its balance on each source network, and shows the amount, the source
 * network dropdown (with balances), the destination (address, network, its balance) and
 * 'Confirm with {wallet}'. Then: the quote, 'Confirming with {wallet}' while the wallet signs,
 * 'Bridging with {wallet}' until the deposit is mined (total, destination, network, estimated
 * fee), then success. Errors inline with 'Try again'.
 */
import { useEffect, useMemo, useState } from 'react'
import { formatText, isPorticoError, type WalletConnectorEntry } from 'portico'
import {
  evmBalance,
  formatTokenAmount,
  isPositiveAmount,
  isUserRejection,
  requestBalance,
  sanitizeAmount,
  switchChain,
  toBaseUnits,
  waitForReceipt,
  type Eip1193,
  type FundingChain,
} from 'portico/plugins/funding'
import { Button, ScreenLayout, StatusIcon, TextInput, useKernel, usePlugin, useScreen, useStore, useTexts, type ScreenProps } from 'portico/ui'
import { fetchBridgeQuote, type BridgeQuote } from '../calls'
import { BRIDGE } from '../errors'
import { bridgeHost, quoteInput } from '../quote'
import { BRIDGE_TEXTS } from '../strings'

type Phase =
  | { kind: 'connecting' }
  | { kind: 'form' }
  | { kind: 'quoting' }
  | { kind: 'confirming'; quote: BridgeQuote }
  | { kind: 'bridging'; quote: BridgeQuote }
  | { kind: 'success'; quote: BridgeQuote }
  | { kind: 'error'; message: string }

const short = (a: string) => (a.length > 12 ? `${a.slice(0, 6)}…${a.slice(-4)}` : a)

export default function BridgeTransferScreen(_: ScreenProps) {
  const kernel = useKernel()
  const funding = usePlugin('funding')
  const br = usePlugin('bridge')
  const T = useTexts(BRIDGE, BRIDGE_TEXTS)
  const screen = useScreen()
  const { request } = useStore(funding.state)
  const connector = useMemo(
    () =>
      kernel.hooks.walletConnectors
        .call([])
        .find((c: WalletConnectorEntry) => c.chainType === 'ethereum' && typeof (c.provider as { request?: unknown } | undefined)?.request === 'function'),
    [kernel],
  )
  const sources = useMemo(() => br.options.chains.filter((c) => request?.chainType === 'solana' || c.id !== request?.chain?.id), [br, request])
  const [phase, setPhase] = useState<Phase>({ kind: 'connecting' })
  const [from, setFrom] = useState<string | null>(null)
  const [balances, setBalances] = useState<Record<number, bigint>>({})
  const [destBalance, setDestBalance] = useState<bigint>(0n)
  const [sourceId, setSourceId] = useState<number>(sources[0]?.id ?? 0)
  const [amount, setAmount] = useState(request?.amount ?? '')
  const wallet = connector?.name ?? 'wallet'
  const provider = connector?.provider as Eip1193 | undefined

  useEffect(() => {
    if (!request || !provider) return
    let live = true
    ;(async () => {
      const accounts = (await provider.request({ method: 'eth_requestAccounts' })) as string[]
      const user = accounts[0]
      const entries = await Promise.all(sources.map(async (c) => [c.id, await evmBalance(funding.fetch, c.rpcUrls.default.http[0], user)] as const))
      const dest = await requestBalance(funding.fetch, request)
      if (!live) return
      setFrom(user)
      setBalances(Object.fromEntries(entries))
      setDestBalance(dest)
      setPhase({ kind: 'form' })
    })().catch((e) => live && setPhase({ kind: 'error', message: isUserRejection(e) ? T.rejected : T.somethingWentWrong }))
    return () => {
      live = false
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  if (!request) return null
  if (!provider) {
    return (
      <ScreenLayout title={T.title}>
        <p className="portico-help">{T.noWallet}</p>
      </ScreenLayout>
    )
  }
  const source: FundingChain | undefined = sources.find((c) => c.id === sourceId)

  const confirm = async () => {
    if (!source || !from || !isPositiveAmount(amount)) return
    setPhase({ kind: 'quoting' })
    let quote: BridgeQuote | null
    try {
      const value = toBaseUnits(amount, request.decimals)
      quote = await fetchBridgeQuote(funding.fetch, bridgeHost(request, source, funding.config()?.bridge), quoteInput(request, source, from, value))
    } catch (e) {
      return setPhase({ kind: 'error', message: (e as Error)?.message && !(e instanceof TypeError) ? (e as Error).message : T.quoteError })
    }
    if (!quote) return setPhase({ kind: 'error', message: T.unableToFetchQuotes })
    const q = quote
    try {
      if (BigInt(q.tx.value || '0') > (balances[source.id] ?? 0n)) {
        return setPhase({ kind: 'error', message: formatText(T.notEnoughFunds, { address: from }) })
      }
      setPhase({ kind: 'confirming', quote: q })
      await switchChain(provider, source)
      const hash = (await provider.request({
        method: 'eth_sendTransaction',
        params: [{ from: q.tx.from, to: q.tx.to, data: q.tx.data, value: `0x${BigInt(q.tx.value || '0').toString(16)}` }],
      })) as string
      setPhase({ kind: 'bridging', quote: q })
      await waitForReceipt(funding.fetch, source.rpcUrls.default.http[0], hash)
      setPhase({ kind: 'success', quote: q })
    } catch (e) {
      setPhase({ kind: 'error', message: isUserRejection(e) ? T.rejected : isPorticoError(e) ? e.message : T.somethingWentWrong })
    }
  }

  const symbolOf = (c: FundingChain) => c.nativeCurrency.symbol
  if (phase.kind === 'error') {
    return (
      <ScreenLayout title={T.somethingWentWrong} icon={<StatusIcon status="error" />}>
        <p className="portico-error" role="alert">
          {phase.message}
        </p>
        <Button onClick={() => setPhase({ kind: from ? 'form' : 'connecting' })}>{T.tryAgain}</Button>
      </ScreenLayout>
    )
  }
  if (phase.kind === 'connecting') return <ScreenLayout title={formatText(T.connectingTitle, { wallet })} icon={<StatusIcon status="loading" />} />
  if (phase.kind === 'confirming' || phase.kind === 'bridging' || phase.kind === 'success') {
    const q = phase.quote
    const rows: [string, string][] = [
      [T.total, `${q.total ?? '—'} ${source ? symbolOf(source) : ''}`],
      [T.destination, short(request.address)],
      [T.network, request.network],
      [T.estimatedFee, `${q.fee ?? '—'} ${source ? symbolOf(source) : ''}`],
    ]
    const done = phase.kind === 'success'
    return (
      <ScreenLayout
        title={done ? T.successTitle : formatText(phase.kind === 'confirming' ? T.confirmingTitle : T.bridgingTitle, { wallet })}
        description={done ? formatText(T.successDescription, { network: request.network }) : undefined}
        icon={<StatusIcon status={done ? 'success' : 'loading'} />}
      >
        <dl className="portico-list" data-bridge-summary="">
          {rows.map(([k, v]) => (
            <div key={k} className="portico-actions-row">
              <dt className="portico-help">{k}</dt>
              <dd className="portico-emphasis">{v}</dd>
            </div>
          ))}
        </dl>
        {done ? <Button onClick={() => screen.close({ method: 'wallet', provider: 'bridge' })}>{T.done}</Button> : null}
      </ScreenLayout>
    )
  }
  const destSymbol = request.symbol
  return (
    <ScreenLayout title={T.title}>
      <TextInput label={T.amountLabel} value={amount} inputMode="decimal" autoComplete="off" onChange={(e) => setAmount(sanitizeAmount(e.target.value))} trailing={<span className="portico-emphasis">{destSymbol}</span>} />
      <div className="portico-field">
        <label className="portico-label" htmlFor="portico-bridge-source">
          {T.sourceLabel}
        </label>
        <select id="portico-bridge-source" className="portico-input" value={sourceId} onChange={(e) => setSourceId(Number(e.target.value))}>
          {sources.map((c) => (
            <option key={c.id} value={c.id}>
              {formatText(T.sourceOption, { network: c.name, balance: formatTokenAmount(balances[c.id] ?? 0n, c.nativeCurrency.decimals), symbol: symbolOf(c) })}
            </option>
          ))}
        </select>
      </div>
      <div className="portico-field">
        <span className="portico-label">{T.destinationLabel}</span>
        <p className="portico-help" data-bridge-destination="">
          {formatText(T.destinationValue, { address: short(request.address), network: request.network, balance: formatTokenAmount(destBalance, request.decimals), symbol: destSymbol })}
        </p>
      </div>
      <Button onClick={confirm} loading={phase.kind === 'quoting'} disabled={!isPositiveAmount(amount) || !source}>
        {formatText(T.confirmWith, { wallet })}
      </Button>
    </ScreenLayout>
  )
}
