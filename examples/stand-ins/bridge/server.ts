/**
 * A local stand-in for the bridge provider (Relay's `POST /execute/swap`), for tests and the
 * offline demo. Request and response follow the provider's documented shapes:
 *
 * body { user, recipient, originChainId, destinationChainId, originCurrency,
 *        destinationCurrency, amount, tradeType: 'EXACT_INPUT' | 'EXACT_OUTPUT' }
 * → { steps: [{ id: 'deposit', kind: 'transaction', items: [{ status: 'incomplete',
 *        data: { from, to, data, value, chainId } }] }], fees: { gas, relayer },
 *     details: { currencyIn, currencyOut, timeEstimate } }
 * errors → 400 { message, errorCode } ('Invalid address …' for a malformed user or recipient).
 *
 * The deposit is a real transaction: a plain transfer of `value` (the output converted at a
 * fixed rate, plus the relayer fee) to the 'solver' address, on the origin chain, with the
 * request id as calldata.
 *
 * A Solana origin (originChainId 792703809, originCurrency the native SOL address) answers as
 * the provider does for Solana: the deposit item's data is `{ instructions: [{ keys: [{ pubkey,
 * isSigner, isWritable }], programId, data (hex) }], addressLookupTableAddresses: [] }` for the
 * wallet to put in a transaction, sign and send; here a System-program transfer of the input
 * lamports (output at the fixed rate plus the relayer fee) to the Solana solver.
 */
import { randomBytes } from 'node:crypto'
import { Keypair, PublicKey, SystemProgram } from '@solana/web3.js'
import { Hono } from 'hono'
import { cors } from 'hono/cors'

export const SOLANA_CHAIN_ID = 792703809
export const NATIVE_EVM = '0x0000000000000000000000000000000000000000'
export const NATIVE_SOL = '11111111111111111111111111111111'
/** hardhat's account #9: where deposits go. */
export const SOLVER = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'

/** Where Solana deposits go (a fixed test key's public key). */
export const SOLANA_SOLVER = Keypair.fromSeed(new Uint8Array(32).fill(9)).publicKey.toBase58()
/** The relayer fee for Solana origins, in lamports (0.001 SOL). */
export const SOLANA_FEE_LAMPORTS = 1_000_000n

export interface BridgeStandInOptions {
  /** Relayer fee in wei (default 0.0001 ETH). */
  feeWei?: bigint
  /** ETH per SOL for EVM→Solana quotes (default 0.05). */
  ethPerSol?: number
  solver?: string
}

const EVM = /^0x[0-9a-fA-F]{40}$/
const SOL = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

export function createBridgeStandIn(o: BridgeStandInOptions = {}) {
  const fee = o.feeWei ?? 100_000_000_000_000n
  const quotes: Record<string, unknown>[] = []
  const app = new Hono()
  app.use('*', cors({ origin: '*' }))
  app.post('/execute/swap', async (c) => {
    const b = (await c.req.json().catch(() => null)) as Record<string, unknown> | null
    const bad = (message: string, errorCode = 'INVALID_INPUT') => c.json({ message, errorCode }, 400)
    if (!b) return bad('Invalid body')
    quotes.push(b)
    const origin = Number(b.originChainId)
    const dest = Number(b.destinationChainId)
    const addrOk = (a: unknown, chain: number) => typeof a === 'string' && (chain === SOLANA_CHAIN_ID ? SOL.test(a) : EVM.test(a))
    if (!addrOk(b.user, origin)) return bad('Invalid address for user', 'INVALID_ADDRESS')
    if (!addrOk(b.recipient, dest)) return bad('Invalid address for recipient', 'INVALID_ADDRESS')
    if (b.tradeType !== 'EXACT_OUTPUT' && b.tradeType !== 'EXACT_INPUT') return bad('Invalid tradeType')
    if (!Number.isSafeInteger(origin) || !Number.isSafeInteger(dest) || origin === dest) return bad('Invalid origin or destination chain')
    if (typeof b.amount !== 'string' || !/^\d{1,40}$/.test(b.amount) || BigInt(b.amount) === 0n) return bad('Invalid amount')
    const amount = BigInt(b.amount)
    if (origin === SOLANA_CHAIN_ID) {
      if (b.originCurrency !== NATIVE_SOL) return bad('Unsupported origin currency', 'UNSUPPORTED_CURRENCY')
      // Output in wei → input in lamports at the fixed rate (SOL = ethPerSol ETH), plus the relayer fee.
      const perSolMicro = BigInt(Math.round((o.ethPerSol ?? 0.05) * 1e6))
      const lamportsOut = (amount * 1_000_000n) / perSolMicro / 1_000_000_000n
      const lamports = lamportsOut + SOLANA_FEE_LAMPORTS
      const ix = SystemProgram.transfer({ fromPubkey: new PublicKey(b.user as string), toPubkey: new PublicKey(SOLANA_SOLVER), lamports })
      const sol = (l: bigint) => (Number(l) / 1e9).toString()
      return c.json({
        steps: [
          {
            id: 'deposit',
            action: 'Confirm transaction in your wallet',
            description: 'Depositing funds to the relayer to execute the swap',
            kind: 'transaction',
            requestId: `0x${randomBytes(32).toString('hex')}`,
            items: [
              {
                status: 'incomplete',
                data: {
                  instructions: [
                    {
                      keys: ix.keys.map((k) => ({ pubkey: k.pubkey.toBase58(), isSigner: k.isSigner, isWritable: k.isWritable })),
                      programId: ix.programId.toBase58(),
                      data: Buffer.from(ix.data).toString('hex'),
                    },
                  ],
                  addressLookupTableAddresses: [],
                },
              },
            ],
          },
        ],
        fees: {
          gas: { currency: { symbol: 'SOL', decimals: 9 }, amount: '5000', amountFormatted: '0.000005', amountUsd: '0.00' },
          relayer: { currency: { symbol: 'SOL', decimals: 9 }, amount: SOLANA_FEE_LAMPORTS.toString(), amountFormatted: sol(SOLANA_FEE_LAMPORTS), amountUsd: '0.15' },
        },
        details: {
          operation: 'bridge',
          currencyIn: { currency: { symbol: 'SOL', decimals: 9 }, amount: lamports.toString(), amountFormatted: sol(lamports) },
          currencyOut: { amount: amount.toString() },
          timeEstimate: 5,
        },
      })
    }
    // Output in destination units → input in origin wei (SOL has 9 decimals, ETH 18).
    const out = dest === SOLANA_CHAIN_ID ? (amount * 1_000_000_000n * BigInt(Math.round((o.ethPerSol ?? 0.05) * 1e6))) / 1_000_000n : amount
    const value = out + fee
    const requestId = `0x${randomBytes(32).toString('hex')}`
    const fmt = (wei: bigint) => (Number(wei) / 1e18).toString()
    return c.json({
      steps: [
        {
          id: 'deposit',
          action: 'Confirm transaction in your wallet',
          description: 'Depositing funds to the relayer to execute the swap',
          kind: 'transaction',
          requestId,
          items: [{ status: 'incomplete', data: { from: b.user, to: o.solver ?? SOLVER, data: requestId, value: value.toString(), chainId: origin } }],
        },
      ],
      fees: {
        gas: { currency: { symbol: 'ETH', decimals: 18 }, amount: '21000000000000', amountFormatted: '0.000021', amountUsd: '0.06' },
        relayer: { currency: { symbol: 'ETH', decimals: 18 }, amount: fee.toString(), amountFormatted: fmt(fee), amountUsd: '0.30' },
      },
      details: {
        operation: 'bridge',
        currencyIn: { currency: { symbol: 'ETH', decimals: 18 }, amount: value.toString(), amountFormatted: fmt(value) },
        currencyOut: { amount: amount.toString() },
        timeEstimate: 5,
      },
    })
  })
  return { app, quotes }
}
