/**
 * The local Solana JSON-RPC stand-in for `npm start` (a real SVM, litesvm):
 *
 *   npx tsx examples/stand-ins/svm/main.ts
 *
 * PORTICO_SVM_PORT (8899, Solana's usual local port) and PORTICO_SVM_HOST (127.0.0.1).
 * At start it creates a demo SPL token (6 decimals, deterministic address, printed) and, when
 * PORTICO_SVM_FUND lists base58 addresses (comma separated), airdrops 10 SOL and 1 000 demo
 * tokens to each. Fund any address later with the standard `requestAirdrop` call or the
 * stand-in's `standIn_airdrop` / `standIn_mintTo` methods.
 */
import { serve } from '@hono/node-server'
import { createSvmStandIn } from './handler'

/** The demo token's seed: its mint is C2SenzsNb8ogniUvPu7s2HoKxDRzi39ZmEasRj6NPna6 (scripts/start.mjs names it USDC). */
export const DEMO_MINT_SEED = 'demo-usdc'

const port = Number(process.env.PORTICO_SVM_PORT ?? 8899)
const hostname = process.env.PORTICO_SVM_HOST ?? '127.0.0.1'
const standIn = createSvmStandIn({ log: true })
const mint = await standIn.createMint(6, DEMO_MINT_SEED)
for (const a of (process.env.PORTICO_SVM_FUND ?? '').split(',').filter(Boolean)) {
  standIn.airdrop(a, 10_000_000_000n)
  await standIn.mintTo(mint, a, 1_000_000_000n)
}
const server = serve({ fetch: standIn.fetch, port, hostname }, (info) => {
  console.log(`[svm] Solana JSON-RPC stand-in (litesvm) on http://${hostname}:${info.port}; demo SPL token (6 decimals) ${mint}`)
})
const stop = () => server.close(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
