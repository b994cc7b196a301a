/**
 * The demo's embedded wallets: each wallet's address, its balance on the local chain
 * (`npm start` runs hardhat on 8545), and buttons that sign and send through the wallet's
 * EIP-1193 provider with a viem wallet client (Ethereum) or the headless signer (Solana).
 */
import { useCallback, useEffect, useState } from 'react'
import { usePlugin, useUser } from 'portico/ui'
import { useCreateWallet, useSetWalletRecovery, useWalletDevices, useWallets, type EmbeddedWallet } from 'portico/plugins/embedded-wallet'
import { ConfirmButton } from './confirm-button'
import type { PorticoError } from 'portico'

/** Hardhat's second dev account: where the demo sends its 0.001 ETH. */
export const DEMO_RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

export const DEMO_TYPED_DATA = {
  domain: { name: 'Portico demo', version: '1', chainId: 31337, verifyingContract: '0x0000000000000000000000000000000000000001' },
  types: { Greeting: [{ name: 'from', type: 'address' }, { name: 'text', type: 'string' }] },
  primaryType: 'Greeting',
  message: { from: DEMO_RECIPIENT, text: 'Hello from Portico' },
} as const

function RecoveryButton({ onResult }: { onResult: (s: string) => void }) {
  const { setWalletRecovery } = useSetWalletRecovery()
  return (
    <button data-testid="wallet-recovery" onClick={() => void setWalletRecovery().then((r) => onResult(r.ok ? 'recovery: set' : `recovery: ${r.error.message}`), (e: Error) => onResult(`error: ${e.message}`))}>
      Back up wallet
    </button>
  )
}

function EthereumWallet({ wallet, onResult }: { wallet: EmbeddedWallet; onResult: (s: string) => void }) {
  const [balance, setBalance] = useState<string>('…')
  const client = useCallback(async () => (await import('./wallet-viem')).walletClient(wallet), [wallet])
  const refresh = useCallback(async () => {
    try {
      const { formatEther } = await import('./wallet-viem')
      const provider = await wallet.getEthereumProvider!()
      const wei = (await provider.request({ method: 'eth_getBalance', params: [wallet.address, 'latest'] })) as string
      setBalance(`${formatEther(BigInt(wei))} ETH`)
    } catch {
      setBalance('local chain unreachable')
    }
  }, [wallet])
  useEffect(() => void refresh(), [refresh])
  const run = (label: string, fn: () => Promise<string>) => () =>
    void fn().then(
      (v) => {
        onResult(`${label}: ${v}`)
        void refresh()
      },
      (e: PorticoError & { code?: unknown }) => onResult(`error: ${String(e.code ?? '')} ${e.message}`),
    )
  return (
    <li className="demo-wallet">
      <span>Ethereum #{wallet.walletIndex}</span> <code data-testid="wallet-ethereum">{wallet.address}</code>{' '}
      <span data-testid="wallet-balance">{balance}</span>
      <div className="demo-actions demo-wallet-actions">
        <button data-testid="wallet-sign" onClick={run('signature', async () => (await client()).signMessage({ message: 'Hello from Portico' }))}>
          Sign message
        </button>
        <button data-testid="wallet-sign-typed" onClick={run('typed signature', async () => (await client()).signTypedData(DEMO_TYPED_DATA))}>
          Sign typed data
        </button>
        <button
          data-testid="wallet-send"
          onClick={run('sent', async () => {
            const { parseEther } = await import('./wallet-viem')
            return (await client()).sendTransaction({ to: DEMO_RECIPIENT, value: parseEther('0.001') })
          })}
        >
          Send 0.001 ETH
        </button>
        <button onClick={() => void refresh()}>Refresh balance</button>
        {/* Recovery (issue 14): Google Drive / iCloud (the local stand-in in npm start) or a password. */}
        <RecoveryButton onResult={onResult} />
      </div>
    </li>
  )
}

function SolanaWallet({ wallet, onResult, sign }: { wallet: EmbeddedWallet; onResult: (s: string) => void; sign: (w: EmbeddedWallet) => Promise<Uint8Array> }) {
  return (
    <li className="demo-wallet">
      <span>Solana #{wallet.walletIndex}</span> <code data-testid="wallet-solana">{wallet.address}</code>
      <div className="demo-actions demo-wallet-actions">
        <button
          data-testid="wallet-solana-sign"
          onClick={() =>
            void sign(wallet).then(
              (sig) => onResult(`solana signature: ${btoa(String.fromCharCode(...sig))}`),
              (e: Error) => onResult(`error: ${e.message}`),
            )
          }
        >
          Sign message
        </button>
      </div>
    </li>
  )
}

/**
 * The devices registered for the user's wallet (issue 26): a new browser is added after it
 * confirmed it's the user; a registered one removes another (asked first, as unlinking is).
 */
function WalletDevices({ onResult }: { onResult: (s: string) => void }) {
  const { devices, error, refresh, remove } = useWalletDevices()
  const date = (s: number) => new Date(s * 1000).toLocaleString()
  return (
    <div className="demo-devices" data-testid="wallet-devices">
      <h3>
        Devices (<span data-testid="wallet-devices-count">{devices.length}</span>)
      </h3>
      <ul>
        {devices.map((d) => (
          <li key={d.id} data-testid="wallet-device" data-current={d.current ? 'true' : undefined}>
            <span>{d.label ?? 'Unknown device'}</span>
            {d.current ? <strong> · This device</strong> : null}
            {d.sessionOnly ? <span> · this browser session only</span> : null}
            <span className="demo-muted"> · added {date(d.createdAt)}</span>{' '}
            {d.current ? null : (
              <ConfirmButton
                question="Remove this device from your wallet?"
                confirmLabel="Remove"
                onConfirm={() => void remove(d.id).then(() => onResult('device removed'), (e: Error) => onResult(`error: ${e.message}`))}
              >
                Remove
              </ConfirmButton>
            )}
          </li>
        ))}
      </ul>
      <button data-testid="wallet-devices-refresh" onClick={() => void refresh()}>
        Refresh devices
      </button>
      {error ? (
        <span className="demo-status" role="status">
          {error.message}
        </span>
      ) : null}
    </div>
  )
}

export function WalletPanel({ onResult }: { onResult: (s: string) => void }) {
  const { user } = useUser()
  const { wallets, status } = useWallets()
  const { createWallet, creating } = useCreateWallet()
  const api = usePlugin('embedded-wallet')
  const signSolana = useCallback((w: EmbeddedWallet) => api.signer(w.address).solanaSignMessage(new TextEncoder().encode('Hello from Portico')), [api])
  const [created, setCreated] = useState('')
  if (!user || user.isGuest) return null
  /**
   * Adds a wallet of `chainType` on the user's one HD wallet: index 0 when the user has none of
   * this chain type (an Ethereum user gets their Solana wallet), else the next index (spec part
   * 2 section 5: `createAdditional`). A plain `createWallet()` refuses a second index 0 with
   * 'User already has an embedded wallet.'.
   */
  const add = (chainType: 'ethereum' | 'solana') => {
    const createAdditional = wallets.some((w) => w.chainType === chainType && !w.imported)
    setCreated('')
    void createWallet({ chainType, createAdditional }).then(
      (w) => {
        const text = `${chainType === 'ethereum' ? 'Ethereum' : 'Solana'} wallet #${w.walletIndex} created`
        setCreated(text)
        onResult(`complete: ${text}`)
      },
      (e: PorticoError) => {
        setCreated(e.message)
        onResult(`error: ${e.message}`)
      },
    )
  }
  return (
    <section aria-label="Embedded wallets" className="demo-wallets">
      <h2>Embedded wallets</h2>
      <p>
        Status: <span data-testid="wallet-status">{status}</span>
      </p>
      {wallets.length ? (
        <ul>
          {wallets.map((w) =>
            w.chainType === 'ethereum' ? (
              <EthereumWallet key={w.address} wallet={w} onResult={onResult} />
            ) : (
              <SolanaWallet key={w.address} wallet={w} onResult={onResult} sign={signSolana} />
            ),
          )}
        </ul>
      ) : (
        <p>No embedded wallet yet.</p>
      )}
      {wallets.length ? <WalletDevices onResult={onResult} /> : null}
      <div className="demo-actions demo-wallet-actions">
        <button disabled={creating} onClick={() => add('ethereum')}>
          Create Ethereum wallet
        </button>
        <button disabled={creating} onClick={() => add('solana')}>
          Create Solana wallet
        </button>
        {/* The outcome beside the buttons (the page's result line is far below them). */}
        <span className="demo-status" role="status" data-testid="wallet-create-status">
          {created}
        </span>
      </div>
    </section>
  )
}
