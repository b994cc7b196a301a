/**
 * A local Solana JSON-RPC stand-in over a real SVM (`litesvm`): transactions really execute
 * (System and SPL Token programs, signatures checked, blockhashes checked), behind the
 * JSON-RPC methods the product calls. Tests import `createSvmStandIn()` and use `fetch`
 * in-process or serve it; `main.ts` serves it on port 8899 for `npm start`.
 *
 * Methods: getBalance, getLatestBlockhash, isBlockhashValid, getAccountInfo and
 * getMultipleAccounts (base64 or jsonParsed for SPL mints and token accounts),
 * getTokenAccountsByOwner (mint or programId filter, jsonParsed), getFeeForMessage,
 * getMinimumBalanceForRentExemption, simulateTransaction, sendTransaction (what web3.js's
 * sendRawTransaction calls), getSignatureStatuses, getTransaction (json / jsonParsed,
 * maxSupportedTransactionVersion 0), getSlot, getBlockHeight, getVersion, getGenesisHash,
 * getHealth, requestAirdrop. Not a websocket: confirm by polling getSignatureStatuses.
 * Blockhashes advance as on a cluster (a slot per landed transaction, or per request 400 ms
 * after the last slot; each valid for 150 slots): an unknown one is refused (BlockhashNotFound),
 * and so is a signature already processed (AlreadyProcessed).
 *
 * Test helpers (in-process, and over HTTP as the non-standard `standIn_*` methods):
 * `airdrop(address, lamports)`, `createMint(decimals, seed?)` (a real SPL mint initialised
 * by a real transaction), `mintTo(mint, owner, amount)` (creates the owner's associated
 * token account), `tokenBalance(mint, owner)`; over HTTP also `standIn_advanceSlots(n)` (n slots pass:
 * 151 expire every blockhash handed out before).
 *
 * Known limit: litesvm 0.8's native module aborts the process (std::bad_alloc) at a garbage
 * collection after the Associated Token Account program has run, so `mintTo` writes the
 * associated account directly, and clients should send token transfers to existing token
 * accounts (no create-ATA instruction) against this stand-in. The Memo program does the same
 * (once killed the stand-in mid-suite; a loop of memo simulations reproduces it): keep memos
 * out of test traffic.
 */
import { LiteSVM, FailedTransactionMetadata, type TransactionMetadata } from 'litesvm'
import {
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  VersionedMessage,
  VersionedTransaction,
  LAMPORTS_PER_SOL,
} from '@solana/web3.js'
import {
  MINT_SIZE,
  TOKEN_PROGRAM_ID,
  AccountLayout,
  MintLayout,
  createInitializeMint2Instruction,
  createMintToInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token'
import { createHash } from 'node:crypto'
import { base58 as bs58 } from '@scure/base'

/** How many slots a blockhash stays valid (as on a cluster: 150). */
export const MAX_BLOCKHASH_AGE = 150
/** A slot's length (as on mainnet: 400 ms). */
export const SLOT_MS = 400

/** Fee per signature on this stand-in (as on mainnet without priority fees). */
export const LAMPORTS_PER_SIGNATURE = 5000

interface Stored {
  slot: number
  blockTime: number
  tx: VersionedTransaction
  err: unknown
  logs: string[]
  fee: number
  pre: number[]
  post: number[]
  units: number
}

export interface SvmStandIn {
  svm: LiteSVM
  /** The funded key the stand-in pays set-up transactions with. */
  payer: Keypair
  /** Handles one HTTP request (POST JSON-RPC; OPTIONS for CORS). */
  fetch(request: Request): Promise<Response>
  airdrop(address: string | PublicKey, lamports: bigint | number): void
  /** Creates a real SPL mint (a deterministic address when `seed` is given). */
  createMint(decimals: number, seed?: string): Promise<string>
  /** Mints `amount` base units to `owner`'s associated token account (created if needed). */
  mintTo(mint: string, owner: string, amount: bigint | number): Promise<string>
  tokenBalance(mint: string, owner: string): bigint
}

const rpcError = (id: unknown, code: number, message: string, data?: unknown) => ({
  jsonrpc: '2.0',
  id,
  error: data === undefined ? { code, message } : { code, message, data },
})

/** A deterministic keypair from a label (demo mints keep their address across restarts). */
export function seededKeypair(label: string): Keypair {
  return Keypair.fromSeed(createHash('sha256').update(`portico-svm-stand-in:${label}`).digest())
}

function decodeTx(raw: string, encoding = 'base58'): VersionedTransaction {
  const bytes = encoding === 'base64' ? Buffer.from(raw, 'base64') : Buffer.from(bs58.decode(raw))
  return VersionedTransaction.deserialize(bytes)
}

/** litesvm's fieldless transaction errors, by number, with the RPC's names. */
const FIELDLESS = [
  'AccountInUse', 'AccountLoadedTwice', 'AccountNotFound', 'ProgramAccountNotFound', 'InsufficientFundsForFee',
  'InvalidAccountForFee', 'AlreadyProcessed', 'BlockhashNotFound', 'CallChainTooDeep', 'MissingSignatureForFee',
  'InvalidAccountIndex', 'SignatureFailure', 'InvalidProgramForExecution', 'SanitizeFailure', 'ClusterMaintenance',
]

function errToJson(err: unknown): unknown {
  if (err === null || err === undefined) return null
  if (typeof err === 'number') return FIELDLESS[err] ?? `TransactionError(${err})`
  const text = String((err as { toString(): string }).toString?.() ?? err)
  // litesvm's error objects print like `InstructionError(0, Custom(1))`; keep the RPC's shape
  // ({ InstructionError: [index, detail] }) where it can, else the text.
  const m = /InstructionError\((\d+),\s*(.+)\)$/.exec(text)
  if (m) {
    const custom = /Custom\((\d+)\)/.exec(m[2])
    return { InstructionError: [Number(m[1]), custom ? { Custom: Number(custom[1]) } : m[2].trim()] }
  }
  return text
}

function errorText(err: unknown): string {
  if (typeof err === 'number') return String(errToJson(err))
  return String((err as { toString(): string })?.toString?.() ?? err)
}

export function createSvmStandIn(options: { log?: boolean } = {}): SvmStandIn {
  const svm = new LiteSVM()
  const payer = seededKeypair('payer')
  svm.setAccount(payer.publicKey, {
    lamports: 1_000_000 * LAMPORTS_PER_SOL,
    data: new Uint8Array(),
    owner: SystemProgram.programId,
    executable: false,
  })
  const history = new Map<string, Stored>()
  /** Token accounts seen (SPL token program, 165 bytes): litesvm has no account scan. */
  const tokenAccounts = new Set<string>()
  let slot = 1
  /**
   * Blockhashes as a cluster hands them out: a new one per slot (a slot passes with each landed
   * transaction, and when a request comes 400 ms or more after the last slot), each valid for
   * 150 slots. litesvm alone keeps one blockhash until told to expire it, so the same transfer
   * sent twice was the same signed bytes (refused as AlreadyProcessed), and a retry that fetched
   * a "fresh" blockhash got the same one again (issue 25). litesvm's own check accepts only its
   * latest blockhash: it is off, and this queue checks instead.
   */
  const recent = new Map<string, number>()
  let slotAt = Date.now()
  svm.withBlockhashCheck(false)
  recent.set(svm.latestBlockhash(), slot)
  const advance = () => {
    slot += 1
    slotAt = Date.now()
    svm.warpToSlot(BigInt(slot))
    svm.expireBlockhash()
    recent.set(svm.latestBlockhash(), slot)
    for (const [hash, at] of recent) if (at < slot - MAX_BLOCKHASH_AGE) recent.delete(hash)
  }
  /** A slot passes between requests that are 400 ms apart (none pass while nobody asks). */
  const tick = () => {
    if (Date.now() - slotAt >= SLOT_MS) advance()
  }
  /** Why the runtime would refuse this transaction before executing it, as the RPC names it. */
  const refusal = (tx: VersionedTransaction): string | null => {
    if (!recent.has(tx.message.recentBlockhash)) return 'BlockhashNotFound'
    if (history.has(bs58.encode(tx.signatures[0]))) return 'AlreadyProcessed'
    return null
  }
  /**
   * Every metadata object litesvm hands back stays referenced: litesvm 0.8's native module
   * aborts the process (std::bad_alloc) when the garbage collector finalises the metadata of a
   * transaction that made cross-program invocations (e.g. creating an associated token account).
   */
  const keepAlive: unknown[] = []
  const genesis = bs58.encode(createHash('sha256').update('portico-svm-stand-in').digest())

  const noteTokenAccounts = (keys: PublicKey[]) => {
    for (const k of keys) {
      const acc = svm.getAccount(k)
      if (acc && acc.owner.equals(TOKEN_PROGRAM_ID) && acc.data.length === AccountLayout.span) tokenAccounts.add(k.toBase58())
    }
  }

  const accountKeys = (tx: VersionedTransaction) => tx.message.staticAccountKeys

  /** Runs a transaction on the SVM and records it; returns the signature or the failure. */
  const execute = (tx: VersionedTransaction): { signature: string; err: unknown; logs: string[] } => {
    const refused = refusal(tx)
    if (refused) return { signature: bs58.encode(tx.signatures[0]), err: refused, logs: [] }
    const keys = accountKeys(tx)
    const pre = keys.map((k) => Number(svm.getBalance(k) ?? 0n))
    const result = svm.sendTransaction(tx)
    keepAlive.push(result)
    const failed = result instanceof FailedTransactionMetadata
    const meta: TransactionMetadata = failed ? (result as FailedTransactionMetadata).meta() : (result as TransactionMetadata)
    const signature = bs58.encode(tx.signatures[0])
    const logs = meta.logs()
    const err = failed ? errToJson((result as FailedTransactionMetadata).err()) : null
    // A transaction the runtime refused before executing (bad signature, unknown blockhash,
    // no funds for the fee) never lands: the RPC refuses it at preflight. One that executed
    // and failed still lands (and pays its fee), as on a real cluster.
    if (failed && logs.length === 0) return { signature, err, logs }
    const post = keys.map((k) => Number(svm.getBalance(k) ?? 0n))
    advance()
    history.set(signature, {
      slot,
      blockTime: Math.floor(Date.now() / 1000),
      tx,
      err,
      logs,
      fee: LAMPORTS_PER_SIGNATURE * tx.message.header.numRequiredSignatures,
      pre,
      post,
      units: Number(meta.computeUnitsConsumed()),
    })
    noteTokenAccounts(keys)
    if (options.log) console.log(`[svm] ${signature} ${err ? `failed: ${errorText(err)}` : 'ok'}`)
    return { signature, err, logs }
  }

  const sendLegacy = (tx: Transaction, signers: Keypair[]) => {
    // A fresh fee payer per set-up transaction keeps signatures unique under one blockhash.
    const feePayer = Keypair.generate()
    svm.setAccount(feePayer.publicKey, { lamports: LAMPORTS_PER_SOL, data: new Uint8Array(), owner: SystemProgram.programId, executable: false })
    tx.recentBlockhash = svm.latestBlockhash()
    tx.feePayer = feePayer.publicKey
    tx.sign(feePayer, ...signers)
    const v = VersionedTransaction.deserialize(tx.serialize())
    const r = execute(v)
    if (r.err) throw new Error(`stand-in set-up transaction failed: ${errorText(r.err)}\n${r.logs.join('\n')}`)
    return r.signature
  }

  const context = () => ({ slot, apiVersion: '2.2.0' })

  const parsedAccount = (address: PublicKey, encoding: string) => {
    const acc = svm.getAccount(address)
    if (!acc || (acc.lamports === 0 && acc.data.length === 0 && acc.owner.equals(SystemProgram.programId))) return null
    const base = {
      executable: acc.executable,
      lamports: Number(acc.lamports),
      owner: acc.owner.toBase58(),
      rentEpoch: 0,
      space: acc.data.length,
    }
    if (encoding === 'jsonParsed' && acc.owner.equals(TOKEN_PROGRAM_ID)) {
      const data = Buffer.from(acc.data)
      if (data.length === MintLayout.span) {
        const m = MintLayout.decode(data)
        return {
          ...base,
          data: {
            program: 'spl-token',
            space: data.length,
            parsed: {
              type: 'mint',
              info: {
                decimals: m.decimals,
                freezeAuthority: m.freezeAuthorityOption ? m.freezeAuthority.toBase58() : null,
                isInitialized: m.isInitialized,
                mintAuthority: m.mintAuthorityOption ? m.mintAuthority.toBase58() : null,
                supply: m.supply.toString(),
              },
            },
          },
        }
      }
      if (data.length === AccountLayout.span) {
        const a = AccountLayout.decode(data)
        const mintAcc = svm.getAccount(a.mint)
        const decimals = mintAcc ? MintLayout.decode(Buffer.from(mintAcc.data)).decimals : 0
        return {
          ...base,
          data: {
            program: 'spl-token',
            space: data.length,
            parsed: {
              type: 'account',
              info: {
                isNative: a.isNativeOption === 1,
                mint: a.mint.toBase58(),
                owner: a.owner.toBase58(),
                state: a.state === 2 ? 'frozen' : 'initialized',
                tokenAmount: tokenAmount(a.amount, decimals),
              },
            },
          },
        }
      }
    }
    return { ...base, data: [Buffer.from(acc.data).toString('base64'), 'base64'] }
  }

  const tokenAmount = (amount: bigint, decimals: number) => {
    const s = amount.toString().padStart(decimals + 1, '0')
    const uiAmountString = decimals ? `${s.slice(0, -decimals)}.${s.slice(-decimals)}`.replace(/\.?0+$/, '') : s
    return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString }
  }

  const tokenBalance = (mint: string, owner: string) => {
    const ata = getAssociatedTokenAddressSync(new PublicKey(mint), new PublicKey(owner), true)
    const acc = svm.getAccount(ata)
    return acc ? AccountLayout.decode(Buffer.from(acc.data)).amount : 0n
  }

  const txJson = (signature: string, s: Stored, encoding: string) => {
    const msg = s.tx.message
    const keys = msg.staticAccountKeys
    const header = msg.header
    const isSigner = (i: number) => i < header.numRequiredSignatures
    const isWritable = (i: number) =>
      i < header.numRequiredSignatures
        ? i < header.numRequiredSignatures - header.numReadonlySignedAccounts
        : i < keys.length - header.numReadonlyUnsignedAccounts
    const version = s.tx.version === 'legacy' ? 'legacy' : s.tx.version
    const meta = {
      err: s.err,
      status: s.err ? { Err: s.err } : { Ok: null },
      fee: s.fee,
      preBalances: s.pre,
      postBalances: s.post,
      innerInstructions: [],
      logMessages: s.logs,
      preTokenBalances: [],
      postTokenBalances: [],
      rewards: [],
      computeUnitsConsumed: s.units,
      loadedAddresses: { writable: [], readonly: [] },
    }
    const signatures = s.tx.signatures.map((x) => bs58.encode(x))
    if (encoding === 'jsonParsed') {
      return {
        slot: s.slot,
        blockTime: s.blockTime,
        version,
        meta,
        transaction: {
          signatures,
          message: {
            accountKeys: keys.map((k, i) => ({ pubkey: k.toBase58(), signer: isSigner(i), writable: isWritable(i), source: 'transaction' })),
            // Partially decoded instructions (program id, accounts, base58 data): valid jsonParsed output.
            instructions: msg.compiledInstructions.map((ix) => ({
              programId: keys[ix.programIdIndex].toBase58(),
              accounts: ix.accountKeyIndexes.map((i) => keys[i].toBase58()),
              data: bs58.encode(ix.data),
              stackHeight: null,
            })),
            recentBlockhash: msg.recentBlockhash,
            ...(version === 'legacy' ? {} : { addressTableLookups: [] }),
          },
        },
      }
    }
    return {
      slot: s.slot,
      blockTime: s.blockTime,
      version,
      meta,
      transaction: {
        signatures,
        message: {
          header,
          accountKeys: keys.map((k) => k.toBase58()),
          instructions: msg.compiledInstructions.map((ix) => ({
            programIdIndex: ix.programIdIndex,
            accounts: ix.accountKeyIndexes,
            data: bs58.encode(ix.data),
            stackHeight: null,
          })),
          recentBlockhash: msg.recentBlockhash,
        },
      },
    }
  }

  const standIn: SvmStandIn = {
    svm,
    payer,
    airdrop(address, lamports) {
      const r = svm.airdrop(new PublicKey(address), BigInt(lamports))
      keepAlive.push(r)
      if (r instanceof FailedTransactionMetadata) throw new Error(`airdrop failed: ${errorText(r.err())}`)
      advance()
    },
    async createMint(decimals, seed) {
      const mint = seed ? seededKeypair(`mint:${seed}`) : Keypair.generate()
      const existing = svm.getAccount(mint.publicKey)
      if (existing && existing.data.length === MINT_SIZE) return mint.publicKey.toBase58()
      const rent = Number(svm.minimumBalanceForRentExemption(BigInt(MINT_SIZE)))
      const tx = new Transaction().add(
        SystemProgram.createAccount({
          fromPubkey: payer.publicKey,
          newAccountPubkey: mint.publicKey,
          space: MINT_SIZE,
          lamports: rent,
          programId: TOKEN_PROGRAM_ID,
        }),
        createInitializeMint2Instruction(mint.publicKey, decimals, payer.publicKey, null),
      )
      sendLegacy(tx, [payer, mint])
      return mint.publicKey.toBase58()
    },
    async mintTo(mint, owner, amount) {
      const mintKey = new PublicKey(mint)
      const ownerKey = new PublicKey(owner)
      const ata = getAssociatedTokenAddressSync(mintKey, ownerKey, true)
      if (!svm.getAccount(ata)) {
        // The associated token account is written directly (the address the ATA program would
        // derive, an initialised SPL account): litesvm 0.8 aborts the process on a later
        // garbage collection once the ATA program has run. The mint itself is real SPL work.
        const data = Buffer.alloc(AccountLayout.span)
        AccountLayout.encode(
          {
            mint: mintKey,
            owner: ownerKey,
            amount: 0n,
            delegateOption: 0,
            delegate: PublicKey.default,
            state: 1,
            isNativeOption: 0,
            isNative: 0n,
            delegatedAmount: 0n,
            closeAuthorityOption: 0,
            closeAuthority: PublicKey.default,
          },
          data,
        )
        svm.setAccount(ata, {
          lamports: Number(svm.minimumBalanceForRentExemption(BigInt(AccountLayout.span))),
          data: new Uint8Array(data),
          owner: TOKEN_PROGRAM_ID,
          executable: false,
        })
        tokenAccounts.add(ata.toBase58())
      }
      sendLegacy(new Transaction().add(createMintToInstruction(mintKey, ata, payer.publicKey, BigInt(amount))), [payer])
      return ata.toBase58()
    },
    tokenBalance,
    async fetch(request) {
      const cors = {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'POST, OPTIONS',
        'access-control-allow-headers': 'content-type, solana-client',
      }
      if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: cors })
      const json = (body: unknown, status = 200) =>
        new Response(JSON.stringify(body), { status, headers: { ...cors, 'content-type': 'application/json' } })
      if (request.method === 'GET') return json({ ok: true, service: 'svm-stand-in', slot })
      if (request.method !== 'POST') return json({ error: 'method not allowed' }, 405)
      let body: unknown
      try {
        body = await request.json()
      } catch {
        return json(rpcError(null, -32700, 'Parse error'))
      }
      if (Array.isArray(body)) return json(await Promise.all(body.map((b) => call(b))))
      return json(await call(body))
    },
  }

  async function call(req: unknown): Promise<unknown> {
    const { id = null, method, params = [] } = (req ?? {}) as { id?: unknown; method?: unknown; params?: unknown[] }
    if (typeof method !== 'string' || !Array.isArray(params)) return rpcError(id, -32600, 'Invalid request')
    tick()
    const ok = (result: unknown) => ({ jsonrpc: '2.0', id, result })
    try {
      const cfg = (i: number) => ((params[i] ?? {}) as Record<string, unknown>)
      switch (method) {
        case 'getHealth':
          return ok('ok')
        case 'getVersion':
          return ok({ 'solana-core': '2.2.0', 'feature-set': 0 })
        case 'getGenesisHash':
          return ok(genesis)
        case 'getSlot':
        case 'getBlockHeight':
          return ok(slot)
        case 'getBalance':
          return ok({ context: context(), value: Number(svm.getBalance(new PublicKey(params[0] as string)) ?? 0n) })
        case 'getLatestBlockhash':
          return ok({ context: context(), value: { blockhash: svm.latestBlockhash(), lastValidBlockHeight: slot + MAX_BLOCKHASH_AGE } })
        case 'isBlockhashValid':
          return ok({ context: context(), value: recent.has(String(params[0])) })
        case 'getMinimumBalanceForRentExemption':
          return ok(Number(svm.minimumBalanceForRentExemption(BigInt(Number(params[0] ?? 0)))))
        case 'getAccountInfo':
          return ok({ context: context(), value: parsedAccount(new PublicKey(params[0] as string), String(cfg(1).encoding ?? 'base64')) })
        case 'getMultipleAccounts':
          return ok({
            context: context(),
            value: (params[0] as string[]).map((a) => parsedAccount(new PublicKey(a), String(cfg(1).encoding ?? 'base64'))),
          })
        case 'getTokenAccountsByOwner': {
          const owner = new PublicKey(params[0] as string)
          const filter = cfg(1) as { mint?: string; programId?: string }
          const encoding = String(cfg(2).encoding ?? 'base64')
          const value = []
          for (const addr of tokenAccounts) {
            const acc = svm.getAccount(new PublicKey(addr))
            if (!acc || acc.data.length !== AccountLayout.span) continue
            const a = AccountLayout.decode(Buffer.from(acc.data))
            if (!a.owner.equals(owner)) continue
            if (filter.mint && a.mint.toBase58() !== filter.mint) continue
            if (filter.programId && filter.programId !== TOKEN_PROGRAM_ID.toBase58()) continue
            value.push({ pubkey: addr, account: parsedAccount(new PublicKey(addr), encoding) })
          }
          return ok({ context: context(), value })
        }
        case 'getFeeForMessage': {
          const message = VersionedMessage.deserialize(Buffer.from(params[0] as string, 'base64'))
          return ok({ context: context(), value: LAMPORTS_PER_SIGNATURE * message.header.numRequiredSignatures })
        }
        case 'simulateTransaction': {
          const c = cfg(1)
          const tx = decodeTx(params[0] as string, String(c.encoding ?? 'base58'))
          if (c.replaceRecentBlockhash) tx.message.recentBlockhash = svm.latestBlockhash()
          else if (!recent.has(tx.message.recentBlockhash)) {
            return ok({ context: context(), value: { err: 'BlockhashNotFound', logs: [], accounts: null, unitsConsumed: 0, returnData: null } })
          }
          // sigVerify false (what wallets ask before signing): simulate without signature checks.
          if (c.sigVerify === false) svm.withSigverify(false)
          let sim
          try {
            sim = svm.simulateTransaction(tx)
          } finally {
            if (c.sigVerify === false) svm.withSigverify(true)
          }
          keepAlive.push(sim)
          const failed = sim instanceof FailedTransactionMetadata
          const meta = sim.meta()
          return ok({
            context: context(),
            value: {
              err: failed ? errToJson((sim as FailedTransactionMetadata).err()) : null,
              logs: meta.logs(),
              accounts: null,
              unitsConsumed: Number(meta.computeUnitsConsumed()),
              returnData: null,
            },
          })
        }
        case 'sendTransaction': {
          const tx = decodeTx(params[0] as string, String(cfg(1).encoding ?? 'base58'))
          const r = execute(tx)
          if (r.err) {
            return rpcError(id, -32002, `Transaction simulation failed: ${errorText(r.err)}`, {
              err: r.err,
              logs: r.logs,
              accounts: null,
              unitsConsumed: 0,
              returnData: null,
            })
          }
          return ok(r.signature)
        }
        case 'requestAirdrop': {
          const to = new PublicKey(params[0] as string)
          const tx = new Transaction().add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: Number(params[1]) }))
          return ok(sendLegacy(tx, [payer]))
        }
        case 'getSignatureStatuses':
          return ok({
            context: context(),
            value: (params[0] as string[]).map((sig) => {
              const s = history.get(sig)
              return s
                ? { slot: s.slot, confirmations: null, err: s.err, status: s.err ? { Err: s.err } : { Ok: null }, confirmationStatus: 'finalized' }
                : null
            }),
          })
        case 'getTransaction': {
          const s = history.get(params[0] as string)
          const c = cfg(1)
          if (s && s.tx.version !== 'legacy' && c.maxSupportedTransactionVersion === undefined) {
            return rpcError(id, -32015, 'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0')
          }
          return ok(s ? txJson(params[0] as string, s, String(c.encoding ?? 'json')) : null)
        }
        // Test helpers (not part of Solana's RPC).
        case 'standIn_airdrop':
          standIn.airdrop(params[0] as string, BigInt(params[1] as string | number))
          return ok(null)
        case 'standIn_createMint':
          return ok(await standIn.createMint(Number(params[0]), params[1] as string | undefined))
        case 'standIn_advanceSlots': {
          // Time passing on the cluster: n slots, each with its blockhash (151 expire every blockhash handed out before).
          const n = Math.min(Math.max(Number(params[0] ?? 1), 1), 1000)
          for (let i = 0; i < n; i++) advance()
          return ok(slot)
        }
        case 'standIn_mintTo':
          return ok(await standIn.mintTo(params[0] as string, params[1] as string, BigInt(params[2] as string | number)))
        default:
          return rpcError(id, -32601, `Method not found: ${method}`)
      }
    } catch (e) {
      return rpcError(id, -32602, `Invalid params: ${(e as Error).message}`)
    }
  }

  return standIn
}
