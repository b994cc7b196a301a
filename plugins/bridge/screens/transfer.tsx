/**
 * 'bridge-transfer': 'Transfer from another network'. Connects the wallets of the wallet base
 * that can pay (the first Ethereum wallet; for an EVM destination with `solanaSource` on, the
 * first Solana wallet that can send), reads their balances on each source network, and shows
 * the amount, the source network dropdown (with balances), the destination (address, network,
 * its balance) and 'Confirm with {wallet}'. Then: the quote, 'Confirming with {wallet}' while
 * the wallet signs, 'Bridging with {wallet}' until the deposit is mined or confirmed (total,
 * destination, network, estimated fee), then success. From Solana, the provider's instructions
 * become a transaction the Solana wallet signs and sends. Errors inline with 'Try again'.
 */
import { useEffect, useMemo, useState } from 'react'
import { formatText, isPorticoError, type WalletConnectorEntry } from 'portico'
import {
  evmBalance,
  formatTokenAmount,
  isPositiveAmount,
  isUserRejection,
  loadSolanaTransactions,
  loadSolanaTransfer,
  requestBalance,
  rpcCall,
  sanitizeAmount,
  solanaBalance,
  switchChain,
  toBaseUnits,
  waitForReceipt,
  type Eip1193,
  type FundingChain,
  type SolanaSender,
} from 'portico/kits/funding'
import { Button, ScreenLayout, StatusIcon, TextInput, useKernel, usePlugin, useScreen, useStore, useTexts, type ScreenProps } from 'portico/ui/screens'
import { fetchBridgeQuote, type BridgeQuote } from '../calls'
import { BRIDGE } from '../errors'
import { bridgeHost, isSolanaSource, quoteInput, solanaSourceChain } from '../quote'
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
  const connectors = useMemo(() => kernel.hooks.walletConnectors.call([]) as WalletConnectorEntry[], [kernel])
  const evmConnector = connectors.find((c) => c.chainType === 'ethereum' && typeof (c.provider as { request?: unknown } | undefined)?.request === 'function')
  const solConnector = connectors.find((c) => c.chainType === 'solana' && typeof c.solanaSignAndSendTransaction === 'function')
  const provider = evmConnector?.provider as Eip1193 | undefined
  const sources = useMemo(() => {
    const evm = provider ? br.options.chains.filter((c) => request?.chainType === 'solana' || c.id !== request?.chain?.id) : []
    const sol = br.options.solanaSource && request?.chainType === 'ethereum' && solConnector ? [solanaSourceChain(br.options.solanaSource)] : []
    return [...evm, ...sol]
  }, [br, request, provider, solConnector])
  const [phase, setPhase] = useState<Phase>({ kind: 'connecting' })
  const [users, setUsers] = useState<{ evm?: string; sol?: string } | null>(null)
  const [balances, setBalances] = useState<Record<number, bigint>>({})
  const [destBalance, setDestBalance] = useState<bigint>(0n)
  const [sourceId, setSourceId] = useState<number>(sources[0]?.id ?? 0)
  const [amount, setAmount] = useState(request?.amount ?? '')
  const source: FundingChain | undefined = sources.find((c) => c.id === sourceId)
  const fromSolana = !!source && isSolanaSource(source)
  const wallet = (fromSolana ? solConnector?.name : evmConnector?.name) ?? 'wallet'

  useEffect(() => {
    if (!request || !sources.length) return
    let live = true
    ;(async () => {
      const evm = sources.some((c) => !isSolanaSource(c)) ? ((await provider!.request({ method: 'eth_requestAccounts' })) as string[])[0] : undefined
      const sol = sources.some(isSolanaSource) ? await (solConnector as unknown as SolanaSender).connect() : undefined
      const entries = await Promise.all(
        sources.map(async (c) => [c.id, isSolanaSource(c) ? await solanaBalance(funding.fetch, c.rpcUrls.default.http[0], sol!) : await evmBalance(funding.fetch, c.rpcUrls.default.http[0], evm!)] as const),
      )
      const dest = await requestBalance(funding.fetch, request)
      if (!live) return
      setUsers({ evm, sol })
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
  if (!sources.length) {
    return (
      <ScreenLayout title={T.title}>
        <p className="portico-help">{T.noWallet}</p>
      </ScreenLayout>
    )
  }

  const confirm = async () => {
    const from = source && users ? (isSolanaSource(source) ? users.sol : users.evm) : undefined
    if (!source || !from || !isPositiveAmount(amount)) return
    setPhase({ kind: 'quoting' })
    let quote: BridgeQuote | null
    try {
      const value = toBaseUnits(amount, request.decimals)
      quote = await fetchBridgeQuote(funding.fetch, bridgeHost(request, source, funding.config()?.bridge), quoteInput(request, source, from, value))
    } catch (e) {
      return setPhase({ kind: 'error', message: (e as Error)?.message && !(e instanceof TypeError) ? (e as Error).message : T.quoteError })
    }
    if (!quote || (isSolanaSource(source) ? !quote.solana : !quote.tx)) return setPhase({ kind: 'error', message: T.unableToFetchQuotes })
    const q = quote
    const rpc = source.rpcUrls.default.http[0]
    try {
      const solana = isSolanaSource(source) ? await loadSolanaTransfer() : null
      const fee = solana ? solana.SOLANA_SIGNATURE_FEE : 0n
      if (q.spend + fee > (balances[source.id] ?? 0n)) {
        return setPhase({ kind: 'error', message: formatText(T.notEnoughFunds, { address: from }) })
      }
      if (q.solana && solana) {
        // Solana origin: the provider's instructions in a transaction the Solana wallet signs and sends.
        const tx = await loadSolanaTransactions()
        const { value } = await rpcCall<{ value: { blockhash: string } }>(funding.fetch, rpc, 'getLatestBlockhash', [{ commitment: 'confirmed' }])
        const transaction = await tx.instructionsTransaction({
          payer: from,
          step: q.solana,
          blockhash: value.blockhash,
          lookupTable: tx.lookupTableReader((method, params) => rpcCall(funding.fetch, rpc, method, params)),
        })
        setPhase({ kind: 'confirming', quote: q })
        await solana.sendWithSolanaWallet({
          sender: solConnector as unknown as SolanaSender,
          fetch: funding.fetch,
          rpc,
          chain: 'solana:mainnet',
          transaction,
          texts: T,
          onSent: () => setPhase({ kind: 'bridging', quote: q }),
        })
        return setPhase({ kind: 'success', quote: q })
      }
      const t = q.tx!
      setPhase({ kind: 'confirming', quote: q })
      await switchChain(provider!, source)
      const hash = (await provider!.request({
        method: 'eth_sendTransaction',
        params: [{ from: t.from, to: t.to, data: t.data, value: `0x${BigInt(t.value || '0').toString(16)}` }],
      })) as string
      setPhase({ kind: 'bridging', quote: q })
      await waitForReceipt(funding.fetch, rpc, hash)
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
        <Button onClick={() => setPhase({ kind: users ? 'form' : 'connecting' })}>{T.tryAgain}</Button>
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
