import { describe, expect, it } from 'vitest'
import { pluginContract } from 'portico/testing'
import { approvals } from './index'
import { encodeFunctionData, maxUint256, parseAbi } from 'viem'
import { Keypair, SystemProgram, TransactionInstruction, PublicKey, TransactionMessage, VersionedTransaction } from '@solana/web3.js'
import { NOT_DECIMAL, formatNative, formatSol, formatTokenAmount, formatUsd, formatUsdc, parseDecimal, plainUnits, toUsd } from './format'
import { APPROVALS_TEXTS } from './strings'
import { ERC1155_ABI, ERC20_ABI, ERC721_ABI, decodeCalldata } from './decode'
import { computeFees, feeRule } from './fees'
import { validateMessage, validateTransactionRequest, assertSameAddress } from './validate'
import { classifyEvmError, classifySolanaFailure, resetsNonce, solanaFailureMessage, NONCE_RESET_CODES } from './errors'
import { BUILT_IN_CHAINS } from './chains'
import { evmExplorerUrl, solanaExplorerUrl } from './explorer'
import { assertContainsKey, classifyInstruction, parseInstructions, refreshBlockhash, TOKEN_PROGRAM } from './solana'

pluginContract(() => approvals())

const A = '0x1111111111111111111111111111111111111111' as const
const B = '0x2222222222222222222222222222222222222222' as const

it("the decimal parser's message is APPROVALS_TEXTS.notDecimal", () => {
  expect(NOT_DECIMAL).toBe(APPROVALS_TEXTS.notDecimal)
})

describe('amount formatting (part 2 section 9)', () => {
  it('tokens: 3 decimals, rounded, grouped, <0.001 for tiny values', () => {
    expect(formatTokenAmount(1_234_567_890_000_000_000_000n, 18)).toBe('1,234.568')
    expect(formatTokenAmount(1_500_000_000_000_000_000n, 18)).toBe('1.5')
    expect(formatTokenAmount(10n ** 18n, 18)).toBe('1')
    expect(formatTokenAmount(999_999_999_999_999n, 18)).toBe('<0.001')
    expect(formatTokenAmount(999_600_000_000_000_000n, 18)).toBe('1')
    expect(formatTokenAmount(1n, 18)).toBe('<0.001')
    expect(formatTokenAmount(0n, 18)).toBe('0')
    expect(formatNative(2n * 10n ** 16n)).toBe('0.02')
  })
  it("an amount to add (Add funds): plain, rounded up to 6 decimals so that it covers what is missing", () => {
    expect(plainUnits(10_045_813_557_300_086n, 18)).toBe('0.010046')
    expect(plainUnits(890_005_000n, 9)).toBe('0.890005')
    expect(plainUnits(10n ** 18n, 18)).toBe('1')
    expect(plainUnits(1n, 18)).toBe('0.000001')
  })
  it('USDC: 6 on-chain decimals', () => {
    expect(formatUsdc(1_234_560n)).toBe('1.235')
    expect(formatUsdc(999n)).toBe('<0.001')
    expect(formatTokenAmount(5_000_000n, 6)).toBe('5')
  })
  it('SOL: 9 decimals with 6 shown, <0.001 for tiny values', () => {
    expect(formatSol(1_234_567_891n)).toBe('1.234568')
    expect(formatSol(5000n)).toBe('<0.001')
    expect(formatSol(1_000_000n)).toBe('0.001')
    expect(formatSol(2_000_000_000n)).toBe('2')
  })
  it('USD: 2 decimals and <$0.01', () => {
    expect(formatUsd(1234.567)).toBe('$1,234.57')
    expect(formatUsd(0.004)).toBe('<$0.01')
    expect(formatUsd(0)).toBe('$0.00')
    expect(formatUsd(3)).toBe('$3.00')
    expect(toUsd(15n * 10n ** 17n, 18, 2000)).toBeCloseTo(3000)
  })
  it('decimal parser: base units, or "Number is not a valid decimal number"', () => {
    expect(parseDecimal('1.5', 6)).toBe(1_500_000n)
    expect(parseDecimal('.25', 2)).toBe(25n)
    expect(parseDecimal('10', 0)).toBe(10n)
    for (const bad of ['', '.', 'abc', '1.2.3', '-1', '1e5', '0.1234567']) {
      expect(() => parseDecimal(bad, 6)).toThrow('Number is not a valid decimal number')
    }
  })
})

describe('calldata decoding (ERC-20 / 721 / 1155)', () => {
  const enc = (abi: unknown, functionName: string, args: unknown[]) =>
    (encodeFunctionData as (p: { abi: unknown; functionName: string; args: unknown[] }) => `0x${string}`)({ abi, functionName, args })
  it('ERC-20 approve, with max uint256 flagged as Maximum', () => {
    const d = decodeCalldata(enc(ERC20_ABI, 'approve', [B, maxUint256]))
    expect(d).toMatchObject({ action: 'approve', functionName: 'approve', spender: B, amount: maxUint256, isMaximum: true, isErc20Ish: true })
    expect(decodeCalldata(enc(ERC20_ABI, 'approve', [B, 5n])).isMaximum).toBe(false)
  })
  it('ERC-20 transfer and transferFrom', () => {
    expect(decodeCalldata(enc(ERC20_ABI, 'transfer', [B, 7n]))).toMatchObject({ action: 'transfer', transferTo: B, amount: 7n })
    expect(decodeCalldata(enc(ERC20_ABI, 'transferFrom', [A, B, 9n]))).toMatchObject({ action: 'transfer', transferFrom: A, transferTo: B, amount: 9n })
  })
  it('ERC-721 transferFrom / approve on an NFT, safeTransferFrom (both), setApprovalForAll', () => {
    expect(decodeCalldata(enc(ERC721_ABI, 'transferFrom', [A, B, 3n]), { isNft: true })).toMatchObject({ action: 'transfer', tokenId: 3n, isNFTIsh: true })
    expect(decodeCalldata(enc(ERC721_ABI, 'approve', [B, 4n]), { isNft: true })).toMatchObject({ action: 'approve', spender: B, tokenId: 4n })
    const safe = parseAbi(['function safeTransferFrom(address from, address to, uint256 tokenId)'])
    expect(decodeCalldata(enc(safe, 'safeTransferFrom', [A, B, 5n]))).toMatchObject({ action: 'transfer', transferFrom: A, transferTo: B, tokenId: 5n })
    const safeData = parseAbi(['function safeTransferFrom(address from, address to, uint256 tokenId, bytes data)'])
    expect(decodeCalldata(enc(safeData, 'safeTransferFrom', [A, B, 6n, '0x']))).toMatchObject({ action: 'transfer', tokenId: 6n })
    expect(decodeCalldata(enc(ERC721_ABI, 'setApprovalForAll', [B, true]))).toMatchObject({ action: 'approve', operator: B, approved: true })
  })
  it('ERC-1155 safeTransferFrom and safeBatchTransferFrom', () => {
    expect(decodeCalldata(enc(ERC1155_ABI, 'safeTransferFrom', [A, B, 1n, 10n, '0x']))).toMatchObject({ action: 'transfer', tokenId: 1n, amount: 10n, isNFTIsh: true })
    expect(decodeCalldata(enc(ERC1155_ABI, 'safeBatchTransferFrom', [A, B, [1n, 2n], [3n, 4n], '0x']))).toMatchObject({
      action: 'batch transfer',
      tokenIds: [1n, 2n],
      amounts: [3n, 4n],
    })
  })
  it('mint, safeMint, batchMint, mintBatch', () => {
    expect(decodeCalldata(enc(ERC20_ABI, 'mint', [B, 100n]))).toMatchObject({ action: 'mint', transferTo: B, amount: 100n })
    expect(decodeCalldata(enc(parseAbi(['function safeMint(address to, uint256 tokenId)']), 'safeMint', [B, 8n]))).toMatchObject({ action: 'mint', tokenId: 8n })
    expect(decodeCalldata(enc(parseAbi(['function safeMint(address to)']), 'safeMint', [B]))).toMatchObject({ action: 'mint', functionName: 'safeMint' })
    expect(decodeCalldata(enc(parseAbi(['function batchMint(address to, uint256[] tokenIds)']), 'batchMint', [B, [1n, 2n]]))).toMatchObject({ action: 'mint', tokenIds: [1n, 2n] })
    expect(decodeCalldata(enc(ERC1155_ABI, 'mintBatch', [B, [1n], [2n], '0x']))).toMatchObject({ action: 'mint', tokenIds: [1n], amounts: [2n] })
  })
  it('anything else is a plain transaction', () => {
    expect(decodeCalldata(undefined)).toMatchObject({ action: 'transaction', isErc20Ish: false, isNFTIsh: false })
    expect(decodeCalldata('0x')).toMatchObject({ action: 'transaction' })
    expect(decodeCalldata('0xdeadbeef00')).toMatchObject({ action: 'transaction' })
    expect(decodeCalldata(enc(ERC20_ABI, 'balanceOf', [A]))).toMatchObject({ action: 'transaction', functionName: 'balanceOf' })
  })
})

describe('fee rules (part 2 section 9)', () => {
  const base = 100n
  it('Arbitrum: 120% of the last base fee, no tip', () => {
    expect(feeRule(42161, true)).toBe('arbitrum')
    expect(computeFees({ chainId: 42161, baseFeePerGas: base, priorityFee: 7n })).toEqual({ type: 'eip1559', maxFeePerGas: 120n, maxPriorityFeePerGas: 0n })
    expect(computeFees({ chainId: 421614, baseFeePerGas: 101n }).maxFeePerGas).toBe(122n) // rounded up
  })
  it('OP Stack: 126% of the base fee plus the priority fee', () => {
    for (const id of [10, 8453, 84532, 11155420, 7777777]) expect(feeRule(id, true)).toBe('op-stack')
    expect(computeFees({ chainId: 8453, baseFeePerGas: base, priorityFee: 5n })).toEqual({ type: 'eip1559', maxFeePerGas: 131n, maxPriorityFeePerGas: 5n })
  })
  it('BSC: legacy type 0 with the gas price, even when blocks carry a base fee', () => {
    expect(computeFees({ chainId: 56, baseFeePerGas: base, gasPrice: 3n })).toEqual({ type: 'legacy', gasPrice: 3n })
    expect(computeFees({ chainId: 97, baseFeePerGas: 0n, gasPrice: 1n }).type).toBe('legacy')
  })
  it('others: EIP-1559 when blocks carry a base fee, else legacy', () => {
    expect(computeFees({ chainId: 1, baseFeePerGas: base, priorityFee: 2n })).toEqual({ type: 'eip1559', maxFeePerGas: 202n, maxPriorityFeePerGas: 2n })
    expect(computeFees({ chainId: 1, baseFeePerGas: null, gasPrice: 9n })).toEqual({ type: 'legacy', gasPrice: 9n })
  })
})

describe('validation texts (part 2 sections 5 and 8)', () => {
  it('message must be a non-empty string', () => {
    expect(() => validateMessage('')).toThrow('Message must be a non-empty string')
    expect(() => validateMessage(5)).toThrow('Message must be a non-empty string')
    expect(validateMessage('hi')).toBe('hi')
  })
  it('chain must be configured', () => {
    expect(() => validateTransactionRequest({ to: A, chainId: 5 }, [1], 1)).toThrow(/^Chain ID 5 is not supported\./)
    expect(validateTransactionRequest({ to: A }, [1, 31337], 31337).chainId).toBe(31337)
    expect(validateTransactionRequest({ to: A, chainId: '0x1' }, [1], 31337).chainId).toBe(1)
  })
  it('numeric fields must be number, bigint or hex; the error names the property', () => {
    const ok = validateTransactionRequest({ to: A, value: '0x10', gas: 21000, maxFeePerGas: 5n, nonce: '0x2' }, [1], 1)
    expect(ok).toMatchObject({ value: 16n, gasLimit: 21000n, maxFeePerGas: 5n, nonce: 2 })
    for (const f of ['gasLimit', 'gasPrice', 'value', 'maxPriorityFeePerGas', 'maxFeePerGas']) {
      expect(() => validateTransactionRequest({ to: A, [f]: '12' }, [1], 1)).toThrow(new RegExp(`\\b${f}\\b`))
      expect(() => validateTransactionRequest({ to: A, [f]: 1.5 }, [1], 1)).toThrow(new RegExp(`\\b${f}\\b`))
    }
  })
  it("'Invalid transaction request' for what is not one", () => {
    for (const bad of [null, 'x', [], {}, { to: 'nope' }, { to: A, data: 'zz' }]) {
      expect(() => validateTransactionRequest(bad, [1], 1)).toThrow('Invalid transaction request')
    }
  })
  it("'Cannot request a signature with this wallet address'", () => {
    expect(() => assertSameAddress(B, A)).toThrow('Cannot request a signature with this wallet address')
    expect(() => assertSameAddress(A.toUpperCase().replace('0X', '0x'), A)).not.toThrow()
  })
})

describe('retry rules', () => {
  it('the four codes that carry a hash reset the nonce', () => {
    expect([...NONCE_RESET_CODES]).toEqual(['CALL_EXCEPTION', 'NONCE_EXPIRED', 'REPLACEMENT_UNDERPRICED', 'TRANSACTION_REPLACED'])
    expect(classifyEvmError(new Error('execution reverted: nope'), '0xabc')).toMatchObject({ code: 'CALL_EXCEPTION', hash: '0xabc' })
    expect(resetsNonce(classifyEvmError(new Error('nonce too low'), '0x1'))).toBe(true)
    expect(resetsNonce(classifyEvmError(new Error('nonce too low')))).toBe(false)
    expect(classifyEvmError(new Error('replacement transaction underpriced')).code).toBe('REPLACEMENT_UNDERPRICED')
    expect(classifyEvmError(new Error('insufficient funds for gas * price + value')).code).toBe('INSUFFICIENT_FUNDS')
    expect(resetsNonce(classifyEvmError(new Error('insufficient funds'), '0x1'))).toBe(false)
  })
  it('a Solana log line about insufficient lamports replaces the message', () => {
    expect(solanaFailureMessage('failed', ['Program 111 invoke [1]', 'Transfer: insufficient lamports 10, need 50'])).toBe('Transfer: insufficient lamports 10, need 50')
    expect(solanaFailureMessage('failed', ['ok'])).toBe('failed')
  })
})

describe('Solana failures (issue 25): a code and a clear text, never the library\'s developer text', () => {
  // What @solana/web3.js 1.x throws when the RPC refuses at preflight (SendTransactionError).
  const simulationFailed = (m: string) =>
    `Simulation failed. \nMessage: Transaction simulation failed: ${m}. \nLogs: \n[]. \nCatch the \`SendTransactionError\` and call \`getLogs()\` on it for full details.`
  it('already processed, blockhash not found, fee, instruction errors, time-out: their code, our text', () => {
    const already = classifySolanaFailure(simulationFailed('AlreadyProcessed'))
    expect(already).toEqual({ code: 'AlreadyProcessed', message: APPROVALS_TEXTS.solanaAlreadyProcessed })
    expect(classifySolanaFailure(simulationFailed('This transaction has already been processed')).code).toBe('AlreadyProcessed')
    expect(classifySolanaFailure(simulationFailed('Blockhash not found'))).toEqual({ code: 'BlockhashNotFound', message: APPROVALS_TEXTS.solanaExpired })
    expect(classifySolanaFailure(simulationFailed('BlockhashNotFound')).code).toBe('BlockhashNotFound')
    expect(classifySolanaFailure(simulationFailed('InsufficientFundsForFee'))).toEqual({ code: 'InsufficientFundsForFee', message: APPROVALS_TEXTS.solanaInsufficientFunds })
    expect(classifySolanaFailure('{"InstructionError":[0,{"Custom":1}]}')).toEqual({ code: 'InstructionError', message: APPROVALS_TEXTS.solanaRejected })
    expect(classifySolanaFailure('Transaction was not confirmed in time')).toEqual({ code: 'TIMEOUT', message: APPROVALS_TEXTS.solanaNotConfirmed })
    expect(classifySolanaFailure('fetch failed')).toEqual({ code: null, message: APPROVALS_TEXTS.solanaNotSent })
    for (const m of [simulationFailed('AlreadyProcessed'), 'fetch failed', '{"InstructionError":[0,"InvalidArgument"]}']) {
      expect(classifySolanaFailure(m).message).not.toMatch(/SendTransactionError|getLogs|Simulation failed|InstructionError|fetch/)
    }
  })
  it('a log line about insufficient lamports still replaces the message (spec)', () => {
    expect(classifySolanaFailure(simulationFailed('{"InstructionError":[0,{"Custom":1}]}'), ['Transfer: insufficient lamports 10, need 50'])).toEqual({
      code: 'InstructionError',
      message: 'Transfer: insufficient lamports 10, need 50',
    })
  })
  it("a retry's blockhash is a fresh one: it waits for the cluster's next one when the latest is the one that failed", async () => {
    const payer = Keypair.generate()
    const first = Keypair.generate().publicKey.toBase58()
    const next = Keypair.generate().publicKey.toBase58()
    const msg = new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: first, instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: payer.publicKey, lamports: 1 })] }).compileToV0Message()
    const answers = [first, first, next]
    let calls = 0
    const connection = { getLatestBlockhash: async () => ({ blockhash: answers[Math.min(calls++, answers.length - 1)], lastValidBlockHeight: 1 }) }
    const tx = await refreshBlockhash(connection as never, new VersionedTransaction(msg), { pollMs: 1 })
    expect(tx.message.recentBlockhash).toBe(next)
    expect(calls).toBe(3)
  })
})

describe('chains and explorers', () => {
  it('28 built-in networks from viem, unique ids', () => {
    expect(BUILT_IN_CHAINS.length).toBe(28)
    expect(new Set(BUILT_IN_CHAINS.map((c) => c.id)).size).toBe(28)
  })
  it('the chain explorer, etherscan when none; Solana with the cluster', () => {
    const base = BUILT_IN_CHAINS.find((c) => c.id === 8453)
    expect(evmExplorerUrl(base, 'tx', '0xh')).toBe('https://basescan.org/tx/0xh')
    expect(evmExplorerUrl({}, 'address', '0xa')).toBe('https://etherscan.io/address/0xa')
    // A local development chain without an explorer of its own: no link (mainnet Etherscan knows nothing of it).
    const hardhat = BUILT_IN_CHAINS.find((c) => c.id === 31337)
    expect(evmExplorerUrl(hardhat, 'tx', '0xh')).toBeNull()
    expect(evmExplorerUrl({ id: 1337 }, 'tx', '0xh')).toBeNull()
    expect(evmExplorerUrl({ id: 4242, rpc: 'http://127.0.0.1:8545' }, 'tx', '0xh')).toBeNull()
    expect(evmExplorerUrl({ id: 4242, rpcUrls: { default: { http: ['http://localhost:8545'] } } }, 'tx', '0xh')).toBeNull()
    // … unless the chain names one (a local Blockscout), and a remote chain without one keeps the spec's fallback.
    expect(evmExplorerUrl({ id: 31337, blockExplorers: { default: { url: 'http://localhost:4000/' } } }, 'tx', '0xh')).toBe('http://localhost:4000/tx/0xh')
    expect(evmExplorerUrl({ id: 4242, rpc: 'https://rpc.example.com' }, 'tx', '0xh')).toBe('https://etherscan.io/tx/0xh')
    expect(solanaExplorerUrl('tx', 'sig')).toBe('https://explorer.solana.com/tx/sig')
    expect(solanaExplorerUrl('tx', 'sig', 'devnet')).toBe('https://explorer.solana.com/tx/sig?cluster=devnet')
    expect(solanaExplorerUrl('address', 'a', 'localnet', 'http://127.0.0.1:8899')).toBe(
      'https://explorer.solana.com/address/a?cluster=custom&customUrl=http%3A%2F%2F127.0.0.1%3A8899',
    )
  })
})

describe('Solana instructions', () => {
  const from = Keypair.generate().publicKey
  const to = Keypair.generate().publicKey
  const mint = Keypair.generate().publicKey
  const ataA = Keypair.generate().publicKey
  const ataB = Keypair.generate().publicKey
  const tokenIx = (code: number, keys: PublicKey[], amount: bigint, decimals?: number) => {
    const data = Buffer.alloc(decimals === undefined ? 9 : 10)
    data[0] = code
    data.writeBigUInt64LE(amount, 1)
    if (decimals !== undefined) data[9] = decimals
    return new TransactionInstruction({ programId: new PublicKey(TOKEN_PROGRAM), keys: keys.map((pubkey) => ({ pubkey, isSigner: false, isWritable: true })), data })
  }
  it('sol-transfer, spl-transfer (Transfer and TransferChecked) and unknown', async () => {
    expect(classifyInstruction(SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports: 42 }))).toEqual({
      type: 'sol-transfer',
      fromAccount: from.toBase58(),
      toAccount: to.toBase58(),
      value: 42n,
    })
    expect(classifyInstruction(tokenIx(12, [ataA, mint, ataB, from], 1500n, 6))).toMatchObject({ type: 'spl-transfer', mint: mint.toBase58(), value: 1500n, decimals: 6 })
    const memo = new TransactionInstruction({ programId: new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'), keys: [], data: Buffer.from('hi') })
    expect(classifyInstruction(memo)).toEqual({ type: 'unknown', programId: 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr' })

    const msg = new TransactionMessage({
      payerKey: from,
      recentBlockhash: Keypair.generate().publicKey.toBase58(),
      instructions: [SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports: 5 }), tokenIx(3, [ataA, ataB, from], 7n), memo],
    }).compileToV0Message()
    const tx = new VersionedTransaction(msg)
    const parsed = await parseInstructions(tx, {
      mintOf: async (a) => (a === ataA.toBase58() ? mint.toBase58() : null),
      ownerOf: async (a) => (a === ataB.toBase58() ? to.toBase58() : null),
      tokenInfo: async (m) => (m === mint.toBase58() ? { symbol: 'USDC', address: m, decimals: 6 } : null),
    })
    expect(parsed.map((p) => p.type)).toEqual(['sol-transfer', 'spl-transfer', 'unknown'])
    expect(parsed[1]).toMatchObject({ fromAccount: from.toBase58(), toAccount: to.toBase58(), token: { symbol: 'USDC', decimals: 6 }, value: 7n })
    expect(() => assertContainsKey(tx, Keypair.generate().publicKey.toBase58())).toThrow(/^Transaction does not contain public key \w+$/)
    expect(() => assertContainsKey(tx, from.toBase58())).not.toThrow()
  })
})
