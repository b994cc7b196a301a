/**
 * The demo's approvals panel (portico/plugins/approvals): every button goes through the
 * approval screens with the user's embedded wallets — sign a message and typed data, send ETH,
 * mint / transfer / approve the demo ERC-20 (DUSD) on the local chain; on the SVM stand-in,
 * get SOL and demo USDC, send SOL and an SPL transfer. `npm start` runs both chains.
 */
import { useState } from 'react'
import { useUser } from 'portico/ui'
import { useWallets } from 'portico/plugins/embedded-wallet'
import {
  useSendSolanaTransaction,
  useSendTransaction,
  useSignMessage,
  useSignTypedData,
} from 'portico/plugins/approvals'
import { approvalsSettings } from './approvals-settings'

/** Hardhat's second dev account receives the demo's ETH and tokens. */
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
/** A fixed Solana recipient (any valid key). */
const SOL_RECIPIENT = 'HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH'

const TYPED = {
  domain: { name: 'Portico approvals demo', version: '1', chainId: 31337 },
  types: { Order: [{ name: 'item', type: 'string' }, { name: 'quantity', type: 'uint256' }] },
  primaryType: 'Order',
  message: { item: 'Coffee', quantity: '2' },
}

async function svmCall<T>(rpc: string, method: string, params: unknown[]): Promise<T> {
  const r = await fetch(rpc, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const body = (await r.json()) as { result?: T; error?: { message: string } }
  if (body.error) throw new Error(body.error.message)
  return body.result as T
}

export function ApprovalsPanel({ onResult }: { onResult: (s: string) => void }) {
  const { user } = useUser()
  const { wallets } = useWallets()
  const settings = approvalsSettings()
  const { signMessage } = useSignMessage()
  const { signTypedData } = useSignTypedData()
  const { sendTransaction } = useSendTransaction()
  const { sendTransaction: sendSolana } = useSendSolanaTransaction()
  const [busy, setBusy] = useState(false)
  if (!user || user.isGuest || !settings.enabled) return null
  const eth = wallets.find((w) => w.chainType === 'ethereum')
  const sol = wallets.find((w) => w.chainType === 'solana')
  const switchAddress = new URLSearchParams(location.search).get('switch')

  const run = (label: string, fn: () => Promise<string>) => () => {
    setBusy(true)
    void fn()
      .then(
        (v) => onResult(`${label}: ${v}`),
        (e: Error & { code?: unknown }) => onResult(`error: ${String(e.code ?? '')} ${e.message}`),
      )
      .finally(() => setBusy(false))
  }
  const erc20 = async (fn: 'mint' | 'transfer' | 'approve', args: unknown[]) => {
    const { encodeFunctionData, parseAbi } = await import('./approvals-viem')
    const abi = parseAbi(['function mint(address to, uint256 amount)', 'function transfer(address to, uint256 amount) returns (bool)', 'function approve(address spender, uint256 amount) returns (bool)'])
    const data = encodeFunctionData({ abi, functionName: fn, args: args as never })
    return (await sendTransaction({ to: settings.erc20, data })).hash
  }
  const solanaTx = async (
    build: (w: typeof import('./approvals-buffer'), from: InstanceType<typeof w.PublicKey>, buffer: typeof import('buffer').Buffer) => Array<InstanceType<typeof w.TransactionInstruction>>,
  ) => {
    const w = await import('./approvals-buffer')
    const NodeBuffer = w.ensureBuffer()
    const from = new w.PublicKey(sol!.address)
    const { value } = await svmCall<{ value: { blockhash: string } }>(settings.svm, 'getLatestBlockhash', [])
    const message = new w.TransactionMessage({ payerKey: from, recentBlockhash: value.blockhash, instructions: build(w, from, NodeBuffer) }).compileToV0Message()
    const { signature } = await sendSolana(new w.VersionedTransaction(message).serialize(), { cluster: 'localnet' })
    return signature
  }

  return (
    <section aria-label="Approvals" className="demo-wallets">
      <h2>Approvals (sign and send through the confirmation screens)</h2>
      {eth && (
        <div className="demo-actions demo-wallet-actions">
          <button disabled={busy} data-testid="apv-sign" onClick={run('apv signature', () => signMessage('Hello from Portico approvals', { uiOptions: { title: 'Sign the demo message', description: 'This proves you own this wallet.', buttonText: 'Sign message' } }))}>
            Sign message
          </button>
          <button disabled={busy} data-testid="apv-sign-typed" onClick={run('apv typed signature', () => signTypedData(TYPED))}>
            Sign typed data
          </button>
          <button disabled={busy} data-testid="apv-send-eth" onClick={run('apv sent', async () => (await sendTransaction({ to: RECIPIENT, value: '0x2386f26fc10000' })).hash)}>
            Send 0.01 ETH
          </button>
          <button disabled={busy} data-testid="apv-mint" onClick={run('apv minted', () => erc20('mint', [eth.address, 100_000_000n]))}>
            Mint 100 DUSD
          </button>
          <button disabled={busy} data-testid="apv-transfer" onClick={run('apv transferred', () => erc20('transfer', [RECIPIENT, 1_500_000n]))}>
            Transfer 1.5 DUSD
          </button>
          <button disabled={busy} data-testid="apv-approve" onClick={run('apv approved', async () => erc20('approve', [RECIPIENT, (await import('./approvals-viem')).maxUint256]))}>
            Approve unlimited DUSD
          </button>
          {switchAddress && (
            <button disabled={busy} data-testid="apv-poke" onClick={run('apv poked', async () => (await sendTransaction({ to: switchAddress, data: '0x18178358' })).hash)}>
              Call the switch contract
            </button>
          )}
        </div>
      )}
      {sol && (
        <div className="demo-actions demo-wallet-actions">
          <button
            disabled={busy}
            data-testid="apv-sol-fund"
            onClick={run('apv funded', async () => {
              await svmCall(settings.svm, 'requestAirdrop', [sol.address, 2_000_000_000])
              await svmCall(settings.svm, 'standIn_mintTo', [settings.splMint, sol.address, '10000000'])
              await svmCall(settings.svm, 'standIn_mintTo', [settings.splMint, SOL_RECIPIENT, '0'])
              return '2 SOL and 10 USDC'
            })}
          >
            Get 2 SOL and 10 USDC (local cluster)
          </button>
          <button
            disabled={busy}
            data-testid="apv-send-sol"
            onClick={run('apv solana sent', () => solanaTx((w, from) => [w.SystemProgram.transfer({ fromPubkey: from, toPubkey: new w.PublicKey(SOL_RECIPIENT), lamports: 10_000_000 })]))}
          >
            Send 0.01 SOL
          </button>
          <button
            disabled={busy}
            data-testid="apv-send-spl"
            onClick={run('apv spl sent', () =>
              solanaTx((w, from, buffer) => {
                const TOKEN = new w.PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')
                const ATA = new w.PublicKey('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL')
                const mint = new w.PublicKey(settings.splMint)
                const ata = (owner: InstanceType<typeof w.PublicKey>) => w.PublicKey.findProgramAddressSync([owner.toBytes(), TOKEN.toBytes(), mint.toBytes()], ATA)[0]
                const data = new Uint8Array(10)
                data[0] = 12 // TransferChecked
                new DataView(data.buffer).setBigUint64(1, 1_000_000n, true)
                data[9] = 6
                return [
                  new w.TransactionInstruction({
                    programId: TOKEN,
                    keys: [
                      { pubkey: ata(from), isSigner: false, isWritable: true },
                      { pubkey: mint, isSigner: false, isWritable: false },
                      { pubkey: ata(new w.PublicKey(SOL_RECIPIENT)), isSigner: false, isWritable: true },
                      { pubkey: from, isSigner: true, isWritable: false },
                    ],
                    data: buffer.from(data),
                  }),
                ]
              }),
            )}
          >
            Send 1 USDC (SPL)
          </button>
        </div>
      )}
    </section>
  )
}
