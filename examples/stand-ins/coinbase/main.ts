/**
 * The Coinbase Onramp stand-in for the offline demo (npm start):
 * `npx tsx examples/stand-ins/coinbase/main.ts`. PORTICO_COINBASE_PORT (8795). It accepts the
 * reference server's development API key.
 */
import { serve } from '@hono/node-server'
import { DEV_COINBASE_PUBLIC_JWK, DEV_FUNDING } from '../../server/src/funding-config'
import { createCoinbaseStandIn } from './server'

const port = Number(process.env.PORTICO_COINBASE_PORT ?? 8795)
const { app } = createCoinbaseStandIn({
  keys: { [DEV_FUNDING.coinbase.apiKeyName]: { ...DEV_COINBASE_PUBLIC_JWK } },
  projectId: DEV_FUNDING.coinbase.projectId,
})
const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info) => {
  console.log(`[coinbase] Coinbase Onramp stand-in (session tokens, pay page, status) on http://127.0.0.1:${info.port}`)
})
const stop = () => server.close(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
