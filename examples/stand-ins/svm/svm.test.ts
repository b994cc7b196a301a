import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import { createTransferCheckedInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token'
import { startSvm, type Svm } from '../../../test/chains/svm'

// The stand-in runs in its own process (test/chains/svm.ts): litesvm's native module may abort on exit.
let standIn: Svm
let conn: Connection
let url: string

beforeAll(async () => {
  standIn = await startSvm()
  url = standIn.rpc
  conn = new Connection(url, { commitment: 'confirmed', disableRetryOnRateLimit: true })
})
afterAll(() => standIn?.stop())

async function send(payer: Keypair, ixs: Parameters<TransactionMessage['instructions']['push']>, signers: Keypair[] = [payer]) {
  const { blockhash } = await conn.getLatestBlockhash()
  const msg = new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions: ixs }).compileToV0Message()
  const tx = new VersionedTransaction(msg)
  tx.sign(signers)
  return { sig: await conn.sendRawTransaction(tx.serialize()), msg }
}

describe('SVM JSON-RPC stand-in (litesvm) through @solana/web3.js', () => {
  it('airdrops, transfers SOL, reports fee, status and the parsed transaction', async () => {
    const alice = Keypair.generate()
    const bob = Keypair.generate()
    await standIn.airdrop(alice.publicKey.toBase58(), 2n * BigInt(LAMPORTS_PER_SOL))
    expect(await conn.getBalance(alice.publicKey)).toBe(2 * LAMPORTS_PER_SOL)
    const ix = SystemProgram.transfer({ fromPubkey: alice.publicKey, toPubkey: bob.publicKey, lamports: 1_000_000 })
    const { blockhash } = await conn.getLatestBlockhash()
    const message = new TransactionMessage({ payerKey: alice.publicKey, recentBlockhash: blockhash, instructions: [ix] }).compileToV0Message()
    expect((await conn.getFeeForMessage(message)).value).toBe(5000)
    const sim = new VersionedTransaction(message)
    sim.sign([alice])
    expect((await conn.simulateTransaction(sim)).value.err).toBeNull()
    const { sig } = await send(alice, [ix])
    const st = await conn.getSignatureStatuses([sig])
    expect(st.value[0]?.confirmationStatus).toBe('finalized')
    const parsed = await conn.getParsedTransaction(sig, { maxSupportedTransactionVersion: 0 })
    expect(parsed?.meta?.fee).toBe(5000)
    expect(parsed?.transaction.signatures[0]).toBe(sig)
    expect(parsed?.transaction.message.accountKeys[0].pubkey.toBase58()).toBe(alice.publicKey.toBase58())
    expect(await conn.getBalance(bob.publicKey)).toBe(1_000_000)
    expect(await conn.getBalance(alice.publicKey)).toBe(2 * LAMPORTS_PER_SOL - 1_000_000 - 5000)
  })

  it('refuses a transfer beyond the balance with the runtime logs', async () => {
    const poor = Keypair.generate()
    await standIn.airdrop(poor.publicKey.toBase58(), 10_000_000n)
    const ix = SystemProgram.transfer({ fromPubkey: poor.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 50_000_000 })
    const err = await send(poor, [ix]).catch((e) => e)
    expect(String(err.message)).toMatch(/simulation failed/i)
    expect((err.logs ?? err.transactionLogs ?? []).join('\n')).toMatch(/insufficient lamports/)
  })

  it('mints a real SPL token, reads it jsonParsed and transfers it', async () => {
    const owner = Keypair.generate()
    const dest = Keypair.generate()
    await standIn.airdrop(owner.publicKey.toBase58(), BigInt(LAMPORTS_PER_SOL))
    const mint = await standIn.createMint(6, 'test-usdc')
    expect(await standIn.createMint(6, 'test-usdc')).toBe(mint)
    await standIn.mintTo(mint, owner.publicKey.toBase58(), 5_000_000n)
    const info = await conn.getParsedAccountInfo(new PublicKey(mint))
    expect((info.value?.data as { parsed: { info: { decimals: number } } }).parsed.info.decimals).toBe(6)
    const accounts = await conn.getParsedTokenAccountsByOwner(owner.publicKey, { mint: new PublicKey(mint) })
    expect(accounts.value[0].account.data.parsed.info.tokenAmount.uiAmountString).toBe('5')
    const mintKey = new PublicKey(mint)
    const from = getAssociatedTokenAddressSync(mintKey, owner.publicKey)
    const to = getAssociatedTokenAddressSync(mintKey, dest.publicKey)
    // The destination account exists first (no ATA program on this stand-in: see handler.ts).
    await standIn.mintTo(mint, dest.publicKey.toBase58(), 0n)
    await send(owner, [createTransferCheckedInstruction(from, mintKey, to, owner.publicKey, 1_500_000n, 6)])
    const destAccounts = await conn.getParsedTokenAccountsByOwner(dest.publicKey, { mint: mintKey })
    expect(destAccounts.value[0].account.data.parsed.info.tokenAmount.uiAmount).toBe(1.5)
  })

  it('advances its blockhash as a cluster does: the same transfer sent twice lands twice, with two signatures (issue 25)', async () => {
    const alice = Keypair.generate()
    const bob = Keypair.generate()
    await standIn.airdrop(alice.publicKey.toBase58(), BigInt(LAMPORTS_PER_SOL))
    const ix = () => SystemProgram.transfer({ fromPubkey: alice.publicKey, toPubkey: bob.publicKey, lamports: 1_000_000 })
    const first = await send(alice, [ix()])
    const second = await send(alice, [ix()])
    expect(second.sig).not.toBe(first.sig)
    expect(second.msg.recentBlockhash).not.toBe(first.msg.recentBlockhash)
    expect(await conn.getBalance(bob.publicKey)).toBe(2_000_000)
    // A blockhash handed out a moment ago stays valid for later sends (a cluster keeps ~150).
    expect((await conn.isBlockhashValid(first.msg.recentBlockhash)).value).toBe(true)
    const old = new VersionedTransaction(
      new TransactionMessage({ payerKey: alice.publicKey, recentBlockhash: first.msg.recentBlockhash, instructions: [SystemProgram.transfer({ fromPubkey: alice.publicKey, toPubkey: bob.publicKey, lamports: 7 })] }).compileToV0Message(),
    )
    old.sign([alice])
    await conn.sendRawTransaction(old.serialize())
    expect(await conn.getBalance(bob.publicKey)).toBe(2_000_007)
    // The very same signed transaction again: refused, as a cluster refuses a processed one.
    const again = new VersionedTransaction(first.msg)
    again.sign([alice])
    const err = await conn.sendRawTransaction(again.serialize()).catch((e) => e)
    expect(String(err.message)).toMatch(/AlreadyProcessed/)
    // An unknown blockhash is refused.
    const stale = new VersionedTransaction(
      new TransactionMessage({ payerKey: alice.publicKey, recentBlockhash: Keypair.generate().publicKey.toBase58(), instructions: [ix()] }).compileToV0Message(),
    )
    stale.sign([alice])
    expect(String((await conn.sendRawTransaction(stale.serialize()).catch((e) => e)).message)).toMatch(/BlockhashNotFound/)
    // 151 slots later, a blockhash handed out before has expired.
    const { blockhash } = await conn.getLatestBlockhash()
    await standIn.call('standIn_advanceSlots', [151])
    expect((await conn.isBlockhashValid(blockhash)).value).toBe(false)
  })

  it('creates the demo token at start', async () => {
    const info = await conn.getParsedAccountInfo(new PublicKey(standIn.demoMint))
    expect((info.value?.data as { parsed: { type: string } }).parsed.type).toBe('mint')
  })

  it('answers unknown methods and bad params with JSON-RPC errors, never a crash', async () => {
    const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'nope' }) })
    expect((await r.json()).error.code).toBe(-32601)
    const b = await fetch(url, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'getBalance', params: ['not-a-key'] }) })
    expect((await b.json()).error.code).toBe(-32602)
    const airdrop = await fetch(url, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'requestAirdrop', params: [Keypair.generate().publicKey.toBase58(), 1_000_000_000] }) })
    expect(typeof (await airdrop.json()).result).toBe('string')
  })
})
