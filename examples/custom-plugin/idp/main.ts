/**
 * Start the Acme ID example identity provider:
 *
 *   npx tsx examples/custom-plugin/idp/main.ts
 *
 * ACME_ID_PORT (8791) and ACME_ID_HOST (127.0.0.1) set where it listens; ACME_ID_ORIGINS
 * (comma-separated) the app origins allowed for client 'portico-demo'. The reference server's
 * app 'portico-test-acmeid-00001' (examples/server/apps.json) trusts this server's JWKS.
 */
import { serve } from '@hono/node-server'
import { createAcmeIdp } from './server'

const port = Number(process.env.ACME_ID_PORT ?? 8791)
const hostname = process.env.ACME_ID_HOST ?? '127.0.0.1'
const origins = (
  process.env.ACME_ID_ORIGINS ??
  'http://localhost:5173,http://127.0.0.1:5173,http://localhost:4173,http://127.0.0.1:4173,http://localhost:3000'
)
  .split(',')
  .map((o) => o.trim())
  .filter(Boolean)

const { app } = await createAcmeIdp({
  issuer: process.env.ACME_ID_ISSUER ?? `http://${hostname}:${port}`,
  clients: { 'portico-demo': { name: 'Portico Demo', origins } },
})
const server = serve({ fetch: app.fetch, port, hostname }, (info) => {
  console.log(`[acme-id] identity provider on http://${hostname}:${info.port} (client portico-demo: ${origins.join(' ')})`)
})
const stop = () => server.close(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
