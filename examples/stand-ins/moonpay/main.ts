/**
 * The MoonPay stand-in for the offline demo (npm start): `npx tsx examples/stand-ins/moonpay/main.ts`.
 * PORTICO_MOONPAY_PORT (8794). It accepts the reference server's development keys. A completed
 * purchase is delivered on the local chains (PORTICO_EVM_RPC, 8545; PORTICO_SVM_RPC, 8899).
 */
import { serve } from '@hono/node-server'
import { localDelivery } from '../local-delivery'
import { DEV_FUNDING } from '../../server/src/funding-config'
import { createMoonPayStandIn } from './server'

/** The local chains npm start runs, where a completed purchase is delivered. */
const LOCAL_CHAINS = { evmRpc: process.env.PORTICO_EVM_RPC ?? 'http://127.0.0.1:8545', svmRpc: process.env.PORTICO_SVM_RPC ?? 'http://127.0.0.1:8899' }

const port = Number(process.env.PORTICO_MOONPAY_PORT ?? 8794)
const m = DEV_FUNDING.moonpay
const { app } = createMoonPayStandIn({ keys: { [m.apiKey]: m.secretKey, [m.sandboxApiKey]: m.sandboxSecretKey }, deliver: localDelivery(LOCAL_CHAINS) })
const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info) => {
  console.log(`[moonpay] MoonPay stand-in (widget and transactions API) on http://127.0.0.1:${info.port}`)
})
const stop = () => server.close(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
