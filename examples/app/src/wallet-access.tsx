/**
 * Demo controls for key export and delegated actions: export the first embedded wallet's key
 * (or the recovery phrase), 'Enable offline access' for the Ethereum or Solana wallet with a
 * policy (what the demo's backend may sign), revoke, and the latest delegated signatures
 * (GET /wallets/delegations/audit with the user's token).
 */
import { useState } from 'react'
import type { PorticoError, WalletAccount } from 'portico'
import { useKernel, useUser } from 'portico/ui'
import { useExportWallet } from 'portico/plugins/wallet-export'
import { useDelegatedActions, type DelegationPolicyInput } from 'portico/plugins/delegated-actions'

/** The demo backend's needs: messages, typed data and transactions on the local chain and Base Sepolia, 0.01 ETH a transaction, 0.05 a day, a week. */
export const DEMO_ETHEREUM_POLICY: DelegationPolicyInput = {
  methods: ['personal_sign', 'eth_signTypedData_v4', 'eth_signTransaction'],
  chainIds: [31337, 84532],
  maxValuePerTx: '10000000000000000',
  maxValuePerDay: '50000000000000000',
  expiresIn: 7 * 86400,
}
/** Solana: messages and transactions, 0.01 SOL a transaction, 0.05 a day, a week. */
export const DEMO_SOLANA_POLICY: DelegationPolicyInput = {
  methods: ['signMessage', 'signTransaction'],
  maxValuePerTx: '10000000',
  maxValuePerDay: '50000000',
  expiresIn: 7 * 86400,
}

interface AuditEntry {
  id: number
  method: string
  address: string
  allowed: boolean
  reason: string | null
  created_at: number
}

export function WalletAccess({ onResult }: { onResult: (text: string) => void }) {
  const kernel = useKernel()
  const { user } = useUser()
  const { exportWallet } = useExportWallet()
  const { delegateWallet, revokeWallets } = useDelegatedActions()
  const [activity, setActivity] = useState<AuditEntry[] | null>(null)
  const fail = (e: PorticoError) => onResult(`error: ${e.code}: ${e.message}`)
  const embedded = (user?.linkedAccounts ?? []).filter((a): a is WalletAccount => a.type === 'wallet' && (a as WalletAccount).walletClientType === 'privy')
  if (!user || !embedded.length) return null
  const eth = embedded.find((w) => w.chainType === 'ethereum')
  const sol = embedded.find((w) => w.chainType === 'solana')
  const showActivity = () =>
    kernel.api.get<{ entries: AuditEntry[] }>('/wallets/delegations/audit?limit=5').then((r) => setActivity(r.entries), fail)
  return (
    <section className="demo-actions" aria-label="Wallet export and delegation" data-testid="wallet-access">
      <button onClick={() => exportWallet({ address: eth?.address }).then(() => onResult('complete: export'), fail)} data-testid="export-wallet">
        Export wallet
      </button>
      <button onClick={() => exportWallet({ address: eth?.address, phrase: true }).then(() => onResult('complete: export phrase'), fail)}>Export recovery phrase</button>
      {eth ? (
        <button
          onClick={() => delegateWallet({ address: eth.address, chainType: 'ethereum', policy: DEMO_ETHEREUM_POLICY }).then(() => onResult('complete: delegate'), fail)}
          data-testid="delegate-ethereum"
          disabled={eth.delegated}
        >
          Enable offline access (Ethereum)
        </button>
      ) : null}
      {sol ? (
        <button
          onClick={() => delegateWallet({ address: sol.address, chainType: 'solana', policy: DEMO_SOLANA_POLICY }).then(() => onResult('complete: delegate solana'), fail)}
          data-testid="delegate-solana"
          disabled={sol.delegated}
        >
          Enable offline access (Solana)
        </button>
      ) : null}
      <button onClick={() => revokeWallets().then(() => onResult('complete: revoke'), fail)} data-testid="revoke-delegation" disabled={!embedded.some((w) => w.delegated)}>
        Revoke offline access
      </button>
      <button onClick={showActivity} data-testid="delegation-activity">
        Offline access activity
      </button>
      {activity ? (
        <ul className="demo-activity" data-testid="delegation-activity-list">
          {activity.length ? (
            activity.map((e) => (
              <li key={e.id}>
                {new Date(e.created_at * 1000).toLocaleTimeString()} · {e.method} · {e.allowed ? 'signed' : `refused (${e.reason})`}
              </li>
            ))
          ) : (
            <li>No delegated signatures yet.</li>
          )}
        </ul>
      ) : null}
    </section>
  )
}
