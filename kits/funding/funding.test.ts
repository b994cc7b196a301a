import { describe, expect, it, vi, afterEach } from 'vitest'
import { evmBalance, formatTokenAmount, isPositiveAmount, poll, resolveRequest, sanitizeAmount, toBaseUnits, transferFromWallet, type FundingChain } from './index'
import { fromBaseUnits } from './amount'
import { optionAllowed } from './request'
import { standardChain, transferFromSolanaWallet } from './transfer-solana'

afterEach(() => {
  vi.useRealTimers()
})

const CHAIN: FundingChain = { id: 31337, name: 'Hardhat', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://rpc.test'] } } }
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
/** The funding plugin's texts for a transfer (spec part 2 section 8, word for word; FUNDING_TEXTS has them). */
const FUNDING_TEXTS = {
  rejected: 'Transaction was rejected by the user',
  notEnoughFunds: 'Wallet {address} does not have enough funds.',
  invalidDecimal: 'Number is not a valid decimal number',
}

describe('amount input rules', () => {
  it('keeps digits and one dot; a leading dot becomes 0.', () => {
    expect(sanitizeAmount('12a.3.4')).toBe('12.34')
    expect(sanitizeAmount('.5')).toBe('0.5')
    expect(sanitizeAmount('.')).toBe('0.')
    expect(sanitizeAmount('1,5')).toBe('1.5')
    expect(sanitizeAmount('-3e5')).toBe('35')
    expect(sanitizeAmount('')).toBe('')
  })
  it('Continue needs an amount above 0', () => {
    for (const a of ['', '0', '0.', '0.000', '.']) expect(isPositiveAmount(a), a).toBe(false)
    for (const a of ['1', '0.01', '10.', '0.0001']) expect(isPositiveAmount(a), a).toBe(true)
  })
  it('converts decimals to base units without floating point', () => {
    expect(toBaseUnits('0.05', 18)).toBe(50_000_000_000_000_000n)
    expect(toBaseUnits('1', 6)).toBe(1_000_000n)
    expect(toBaseUnits('.5', 9)).toBe(500_000_000n)
    expect(toBaseUnits('0.1234567', 6)).toBe(123_456n)
    expect(() => toBaseUnits('1e5', 18)).toThrow('Number is not a valid decimal number')
    expect(() => toBaseUnits('', 18)).toThrow('Number is not a valid decimal number')
    expect(fromBaseUnits(50_000_000_000_000_000n, 18)).toBe('0.05')
    expect(formatTokenAmount(1_234_567_000_000_000_000n, 18)).toBe('1.234')
    expect(formatTokenAmount(1n, 18)).toBe('<0.001')
    expect(formatTokenAmount(0n, 18)).toBe('0')
  })
})

describe('funding request', () => {
  it('fills in chain type, amount, symbol and decimals', () => {
    const r = resolveRequest({ address: ADDRESS, chain: CHAIN }, { default_recommended_amount: '0.02' })
    expect(r).toMatchObject({ chainType: 'ethereum', amount: '0.02', symbol: 'ETH', decimals: 18, network: 'Hardhat' })
    expect(resolveRequest({ address: ADDRESS, chain: CHAIN, isUSDC: true }, null)).toMatchObject({ symbol: 'USDC', decimals: 6 })
    expect(resolveRequest({ address: 'So1', cluster: { name: 'devnet' } }, null)).toMatchObject({ chainType: 'solana', symbol: 'SOL', decimals: 9, network: 'Devnet' })
    expect(resolveRequest({ address: 'So1', chainType: 'solana' }, null)).toMatchObject({ network: 'Solana', amount: '0.01' })
    expect(resolveRequest({ address: ADDRESS }, null).chain?.id).toBe(1)
    expect(resolveRequest({ address: ADDRESS, erc20Address: '0xabc', erc20ContractInfo: { symbol: 'TKN', decimals: 8 } }, null)).toMatchObject({ symbol: 'TKN', decimals: 8 })
  })
  it('a chain named by id and name only gets a currency, never a TypeError (issue 25); a cluster of its own is labelled by its name', () => {
    expect(resolveRequest({ address: ADDRESS, chain: { id: 31337, name: 'Hardhat' } as FundingChain }, null)).toMatchObject({ symbol: 'ETH', decimals: 18, network: 'Hardhat' })
    expect(resolveRequest({ address: 'So1', chainType: 'solana', cluster: { name: 'localnet', rpcUrl: 'http://svm.test' } }, null)).toMatchObject({ network: 'Localnet', symbol: 'SOL' })
  })
  it('supportedOptions limits the methods', () => {
    expect(optionAllowed({ address: ADDRESS }, 'card', 'moonpay')).toBe(true)
    const r = { address: ADDRESS, supportedOptions: [{ method: 'card', provider: 'coinbase' as const }, { method: 'wallets' }] }
    expect(optionAllowed(r, 'card', 'moonpay')).toBe(false)
    expect(optionAllowed(r, 'card', 'coinbase')).toBe(true)
    expect(optionAllowed(r, 'wallet')).toBe(true)
    expect(optionAllowed(r, 'manual')).toBe(false)
  })
})

describe('poll', () => {
  it('counts consecutive failures and gives up after maxFailures; ignored errors do not count', async () => {
    vi.useFakeTimers()
    // A 404 (no transaction yet) is an answer: it breaks a run of failures.
    const errs = [404, 500, 404, 500, 500, 500]
    let calls = 0
    const p = poll({
      intervalMs: 3000,
      maxFailures: 3,
      isIgnored: (e) => (e as { status: number }).status === 404,
      tick: async () => {
        throw { status: errs[calls++] }
      },
    })
    let failed: unknown = null
    p.result.catch((e) => (failed = e))
    for (let i = 0; i < 5; i++) await vi.advanceTimersByTimeAsync(3000)
    expect(calls).toBe(6)
    expect(failed).toEqual({ status: 500 })
  })
  it('a success resets the failure count; a value stops it', async () => {
    vi.useFakeTimers()
    const seq: (Error | number | undefined)[] = [new Error('a'), new Error('b'), undefined, new Error('c'), new Error('d'), 7]
    let i = 0
    const p = poll<number>({
      intervalMs: 1000,
      maxFailures: 3,
      tick: async () => {
        const v = seq[i++]
        if (v instanceof Error) throw v
        return v
      },
    })
    await vi.advanceTimersByTimeAsync(10_000)
    await expect(p.result).resolves.toBe(7)
    expect(i).toBe(6)
  })
})

describe('transfer from an external wallet', () => {
  const rpcFetch = (balance: bigint) =>
    (async (_u: RequestInfo | URL, init?: RequestInit) => {
      const b = JSON.parse(String(init?.body))
      const result = b.method === 'eth_getBalance' ? `0x${balance.toString(16)}` : { status: '0x1' }
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: b.id, result }))
    }) as typeof fetch
  const wallet = (over: Record<string, (p: unknown[]) => unknown> = {}) => {
    const calls: string[] = []
    return {
      calls,
      provider: {
        async request({ method, params = [] }: { method: string; params?: unknown[] }) {
          calls.push(method)
          if (over[method]) return over[method](params)
          if (method === 'eth_requestAccounts') return ['0x1111111111111111111111111111111111111111']
          if (method === 'eth_chainId') return '0x7a69'
          if (method === 'eth_sendTransaction') return '0xhash'
          throw new Error(`unexpected ${method}`)
        },
      },
    }
  }
  const request = resolveRequest({ address: ADDRESS, chain: CHAIN, amount: '1' }, null)
  it("refuses with 'Wallet {address} does not have enough funds.'", async () => {
    const w = wallet()
    await expect(transferFromWallet({ provider: w.provider, fetch: rpcFetch(10n), request, texts: FUNDING_TEXTS, onStatus() {} })).rejects.toThrow(
      'Wallet 0x1111111111111111111111111111111111111111 does not have enough funds.',
    )
    expect(w.calls).not.toContain('eth_sendTransaction')
  })
  it("a rejection is 'Transaction was rejected by the user'", async () => {
    const w = wallet({ eth_sendTransaction: () => Promise.reject(Object.assign(new Error('User rejected the request.'), { code: 4001 })) })
    await expect(transferFromWallet({ provider: w.provider, fetch: rpcFetch(10n ** 19n), request, texts: FUNDING_TEXTS, onStatus() {} })).rejects.toThrow(
      'Transaction was rejected by the user',
    )
  })
  it('switches chain, sends the amount, waits for the receipt', async () => {
    let sent: unknown
    const w = wallet({ eth_chainId: () => '0x1', wallet_switchEthereumChain: () => null, eth_sendTransaction: (p) => ((sent = p[0]), '0xabc') })
    const statuses: string[] = []
    const r = await transferFromWallet({ provider: w.provider, fetch: rpcFetch(10n ** 19n), request, texts: FUNDING_TEXTS, onStatus: (s) => statuses.push(s) })
    expect(r.hash).toBe('0xabc')
    expect(w.calls).toContain('wallet_switchEthereumChain')
    expect(sent).toEqual({ from: '0x1111111111111111111111111111111111111111', to: ADDRESS, value: '0xde0b6b3a7640000' })
    expect(statuses).toEqual(['connecting', 'checking', 'awaiting', 'confirming', 'success'])
  })
  it('a screen that went away never sends (aborted signal)', async () => {
    const w = wallet()
    const ac = new AbortController()
    const p = transferFromWallet({ provider: w.provider, fetch: rpcFetch(10n ** 19n), request, texts: FUNDING_TEXTS, signal: ac.signal, onStatus() {} })
    ac.abort()
    await expect(p).rejects.toBeTruthy()
    expect(w.calls).not.toContain('eth_sendTransaction')
  })
  it('balance failures fall back to 0', async () => {
    expect(await evmBalance((async () => { throw new Error('down') }) as never, 'http://x', ADDRESS)).toBe(0n)
  })
})

describe('transfer from an external Solana wallet', () => {
  // Two valid public keys: the test decodes the transaction the wallet is handed.
  const from = 'GsbwXfJraMomNxBcjYLcG3mxkBUiyWXAB32fGbSMQRdW'
  const to = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T'
  const rpcFetch = (balance: number, calls: string[] = []) =>
    (async (_u: RequestInfo | URL, init?: RequestInit) => {
      const b = JSON.parse(String(init?.body))
      calls.push(b.method)
      const result =
        b.method === 'getBalance'
          ? { context: { slot: 1 }, value: balance }
          : b.method === 'getLatestBlockhash'
            ? { context: { slot: 1 }, value: { blockhash: 'EETubP5AKHgjPAhzPAFcb8BAY1hMH639CWCFTqi3hq1k', lastValidBlockHeight: 100 } }
            : b.method === 'getSignatureStatuses'
              ? { context: { slot: 1 }, value: [{ err: null, confirmationStatus: 'confirmed' }] }
              : null
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: b.id, result }))
    }) as typeof fetch
  const request = resolveRequest({ address: to, chainType: 'solana', cluster: { name: 'mainnet-beta', rpcUrl: 'http://svm.test' }, amount: '0.5' }, null)
  const sender = (send: (tx: Uint8Array, chain: string) => Promise<Uint8Array>) => ({ connect: async () => from, solanaSignAndSendTransaction: vi.fn(send) })

  it("refuses with 'Wallet {address} does not have enough funds.' (amount plus the fee)", async () => {
    const s = sender(async () => new Uint8Array(64))
    await expect(
      transferFromSolanaWallet({ sender: s, fetch: rpcFetch(500_000_000), request, texts: FUNDING_TEXTS, onStatus() {} }),
    ).rejects.toThrow(`Wallet ${from} does not have enough funds.`)
    expect(s.solanaSignAndSendTransaction).not.toHaveBeenCalled()
  })

  it("a rejection in the wallet is 'Transaction was rejected by the user'", async () => {
    const s = sender(() => Promise.reject(Object.assign(new Error('User rejected the request.'), { code: 4001 })))
    await expect(transferFromSolanaWallet({ sender: s, fetch: rpcFetch(10 ** 10), request, texts: FUNDING_TEXTS, onStatus() {} })).rejects.toThrow(
      'Transaction was rejected by the user',
    )
  })

  it('builds a SOL transfer for the wallet to sign and send on solana:mainnet, then waits for the cluster', async () => {
    const { VersionedTransaction, SystemInstruction, TransactionInstruction } = await import('@solana/web3.js')
    const calls: string[] = []
    const s = sender(async () => new Uint8Array(64).fill(7))
    const statuses: string[] = []
    const r = await transferFromSolanaWallet({ sender: s, fetch: rpcFetch(10 ** 10, calls), request, texts: FUNDING_TEXTS, onStatus: (x) => statuses.push(x) })
    expect(statuses).toEqual(['connecting', 'checking', 'awaiting', 'confirming', 'success'])
    expect(calls).toEqual(['getBalance', 'getLatestBlockhash', 'getSignatureStatuses'])
    const [bytes, chain] = s.solanaSignAndSendTransaction.mock.calls[0]
    expect(chain).toBe('solana:mainnet')
    const tx = VersionedTransaction.deserialize(bytes)
    const keys = tx.message.staticAccountKeys.map((k) => k.toBase58())
    const ix = tx.message.compiledInstructions[0]
    const decoded = SystemInstruction.decodeTransfer(
      new TransactionInstruction({ programId: tx.message.staticAccountKeys[ix.programIdIndex], keys: ix.accountKeyIndexes.map((i) => ({ pubkey: tx.message.staticAccountKeys[i], isSigner: i === 0, isWritable: i < 2 })), data: Buffer.from(ix.data) }),
    )
    expect({ from: decoded.fromPubkey.toBase58(), to: decoded.toPubkey.toBase58(), lamports: decoded.lamports }).toEqual({ from, to, lamports: 500_000_000n })
    expect(keys[0]).toBe(from)
    expect(r.signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{86,88}$/)
  })

  it('the wallet-standard chain of a cluster', () => {
    expect([standardChain('mainnet-beta'), standardChain('devnet'), standardChain('testnet'), standardChain('localnet')]).toEqual(['solana:mainnet', 'solana:devnet', 'solana:testnet', 'solana:localnet'])
  })
})
