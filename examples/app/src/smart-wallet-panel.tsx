/**
 * The demo's smart-wallet panel (portico/plugins/smart-wallet, `?sw=`): the smart account's
 * address and state, a token transfer, a batched approve + transfer (one user operation) and a
 * message signed by the smart account — each through the approval screens. `?swToken=` names
 * the ERC-20 (default: the demo's DUSD, which `npm start` deploys); `?swTo=` the recipient.
 */
import { useState } from 'react'
import { usePlugin, useUser } from 'portico/ui'
import { useSmartWallets } from 'portico/plugins/smart-wallet'
import { DEMO_ERC20 } from './approvals-settings'

const DEFAULT_TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

export function SmartWalletPanel({ onResult }: { onResult: (s: string) => void }) {
  const { user } = useUser()
  const api = usePlugin('smart-wallet')
  const { client, address, status, error } = useSmartWallets()
  const [busy, setBusy] = useState(false)
  // Bundler requests so far (npm run bench: round trips per user operation).
  const [requests, setRequests] = useState(0)
  if (!api || !user || user.isGuest) return null
  const q = new URLSearchParams(location.search)
  // The ERC-20 to send: `?swToken=`, else the demo's DUSD (npm start deploys it; open mint).
  const token = (q.get('swToken') ?? DEMO_ERC20) as `0x${string}`
  const to = (q.get('swTo') ?? DEFAULT_TO) as `0x${string}`

  const run = (label: string, fn: () => Promise<string>) => () => {
    setBusy(true)
    void fn()
      .then(
        (v) => onResult(`${label}: ${v}`),
        (e: Error & { code?: unknown }) => onResult(`error: ${String(e.code ?? '')} ${e.message}`),
      )
      .finally(() => {
        setBusy(false)
        if (client) setRequests(client.bundlerRequests())
      })
  }
  const erc20 = async (fn: 'transfer' | 'approve', args: readonly [string, bigint]) => {
    const { encodeFunctionData, parseAbi } = await import('./approvals-viem')
    const abi = parseAbi(['function transfer(address to, uint256 amount) returns (bool)', 'function approve(address spender, uint256 amount) returns (bool)'])
    return encodeFunctionData({ abi, functionName: fn, args: args as [`0x${string}`, bigint] })
  }

  return (
    <section aria-label="Smart wallet" className="demo-wallet">
      <h2>Smart wallet</h2>
      <p>
        <span data-testid="sw-status">{status}</span> <code data-testid="sw-address">{address ?? ''}</code>
        {error ? <span data-testid="sw-error"> {error}</span> : null}
        <span hidden data-testid="sw-bundler-requests">{requests}</span>
      </p>
      {client && (
        <div className="demo-actions demo-wallet-actions">
          {token && (
            <button disabled={busy} data-testid="sw-transfer" onClick={run('sw sent', async () => client.sendTransaction({ to: token, data: await erc20('transfer', [to, 1_500_000n]) }))}>
              Transfer 1.5 tokens (ERC-20)
            </button>
          )}
          {token && (
            <button
              disabled={busy}
              data-testid="sw-batch"
              onClick={run('sw batch', async () =>
                client.sendTransaction({ calls: [{ to: token, data: await erc20('approve', [to, 2_000_000n]) }, { to: token, data: await erc20('transfer', [to, 500_000n]) }] }),
              )}
            >
              Approve and transfer (one operation)
            </button>
          )}
          <button disabled={busy} data-testid="sw-sign" onClick={run('sw signature', () => client.signMessage('Hello from a Portico smart wallet'))}>
            Sign as the smart wallet
          </button>
        </div>
      )}
    </section>
  )
}
