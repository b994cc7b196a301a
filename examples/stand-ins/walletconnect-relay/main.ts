/**
 * `npm start`'s WalletConnect relay stand-in: ws://127.0.0.1:8798 (PORTICO_WC_RELAY_PORT).
 * Point the walletconnect plugin's `relayUrl` at it (the demo app does).
 */
import { startRelay } from './relay'

const port = Number(process.env.PORTICO_WC_RELAY_PORT ?? 8798)
const relay = await startRelay({
  port,
  onRequest: (method) => {
    if (process.env.PORTICO_WC_RELAY_LOG) console.log(method)
  },
})
console.log(`WalletConnect relay stand-in on ${relay.url}`)
const stop = () => void relay.close().then(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
