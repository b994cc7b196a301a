/**
 * The Coinbase Onramp stand-in for the offline demo (npm start):
 * `npx tsx examples/stand-ins/coinbase/main.ts`. PORTICO_COINBASE_PORT (8795). It accepts the
 * reference server's development API key. A successful purchase is delivered on the local
 * chains (PORTICO_EVM_RPC, 8545; PORTICO_SVM_RPC, 8899).
 */
import { serve } from '@hono/node-server'
import { localDelivery } from '../local-delivery'
import { DEV_COINBASE_PUBLIC_JWK, DEV_FUNDING } from '../../server/src/funding-config'
import { createCoinbaseStandIn } from './server'

/** The local chains npm start runs, where a completed purchase is delivered. */
const LOCAL_CHAINS = { evmRpc: process.env.PORTICO_EVM_RPC ?? 'http://127.0.0.1:8545', svmRpc: process.env.PORTICO_SVM_RPC ?? 'http://127.0.0.1:8899' }

const port = Number(process.env.PORTICO_COINBASE_PORT ?? 8795)
const { app } = createCoinbaseStandIn({
  keys: { [DEV_FUNDING.coinbase.apiKeyName]: { ...DEV_COINBASE_PUBLIC_JWK } },
  projectId: DEV_FUNDING.coinbase.projectId,
  deliver: localDelivery(LOCAL_CHAINS),
})
const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info) => {
  console.log(`[coinbase] Coinbase Onramp stand-in (session tokens, pay page, status) on http://127.0.0.1:${info.port}`)
})
const stop = () => server.close(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
