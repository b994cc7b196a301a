/**
 * The bridge-provider stand-in (Relay's /execute/swap) for the offline demo (npm start):
 * `npx tsx examples/stand-ins/bridge/main.ts`. PORTICO_BRIDGE_PORT (8796).
 */
import { serve } from '@hono/node-server'
import { createBridgeStandIn } from './server'

const port = Number(process.env.PORTICO_BRIDGE_PORT ?? 8796)
const { app } = createBridgeStandIn()
const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info) => {
  console.log(`[bridge] bridge provider stand-in (POST /execute/swap) on http://127.0.0.1:${info.port}`)
})
const stop = () => server.close(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
