/**
 * The price source stand-in for `npm start` (CoinGecko's simple price API shape):
 *
 *   npx tsx examples/stand-ins/price/main.ts
 *
 * PORTICO_PRICE_PORT (8797), PORTICO_PRICE_HOST (127.0.0.1). Point the reference server at it
 * with PORTICO_PRICE_URL=http://127.0.0.1:8797 (npm start does).
 */
import { serve } from '@hono/node-server'
import { createPriceStandIn } from './handler'

const port = Number(process.env.PORTICO_PRICE_PORT ?? 8797)
const hostname = process.env.PORTICO_PRICE_HOST ?? '127.0.0.1'
const standIn = createPriceStandIn()
const server = serve({ fetch: standIn.fetch, port, hostname }, (info) => {
  console.log(`[price] price source stand-in (CoinGecko simple price shape) on http://${hostname}:${info.port}`)
})
const stop = () => server.close(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
