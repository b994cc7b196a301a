/**
 * Demo controls for key export and delegated actions: export the first embedded wallet's key
 * (or the recovery phrase), 'Enable offline access' for the Ethereum or Solana wallet, revoke.
 */
import type { PorticoError, WalletAccount } from 'portico'
import { useUser } from 'portico/ui/core'
import { useExportWallet } from 'portico/plugins/wallet-export'
import { useDelegatedActions } from 'portico/plugins/delegated-actions'

export function WalletAccess({ onResult }: { onResult: (text: string) => void }) {
  const { user } = useUser()
  const { exportWallet } = useExportWallet()
  const { delegateWallet, revokeWallets } = useDelegatedActions()
  const fail = (e: PorticoError) => onResult(`error: ${e.code}: ${e.message}`)
  const embedded = (user?.linkedAccounts ?? []).filter((a): a is WalletAccount => a.type === 'wallet' && (a as WalletAccount).walletClientType === 'privy')
  if (!user || !embedded.length) return null
  const eth = embedded.find((w) => w.chainType === 'ethereum')
  const sol = embedded.find((w) => w.chainType === 'solana')
  return (
    <section className="demo-actions" aria-label="Wallet export and delegation" data-testid="wallet-access">
      <button onClick={() => exportWallet({ address: eth?.address }).then(() => onResult('complete: export'), fail)} data-testid="export-wallet">
        Export wallet
      </button>
      <button onClick={() => exportWallet({ address: eth?.address, phrase: true }).then(() => onResult('complete: export phrase'), fail)}>Export recovery phrase</button>
      {eth ? (
        <button onClick={() => delegateWallet({ address: eth.address, chainType: 'ethereum' }).then(() => onResult('complete: delegate'), fail)} data-testid="delegate-ethereum" disabled={eth.delegated}>
          Enable offline access (Ethereum)
        </button>
      ) : null}
      {sol ? (
        <button onClick={() => delegateWallet({ address: sol.address, chainType: 'solana' }).then(() => onResult('complete: delegate solana'), fail)} data-testid="delegate-solana" disabled={sol.delegated}>
          Enable offline access (Solana)
        </button>
      ) : null}
      <button onClick={() => revokeWallets().then(() => onResult('complete: revoke'), fail)} data-testid="revoke-delegation" disabled={!embedded.some((w) => w.delegated)}>
        Revoke offline access
      </button>
    </section>
  )
}
