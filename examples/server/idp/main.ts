/**
 * Start the local OAuth identity provider stand-in (tests, offline demo):
 *
 *   npx tsx examples/server/idp/main.ts
 *
 * PORTICO_IDP_PORT (8792) and PORTICO_IDP_HOST (127.0.0.1) set where it listens. Point the
 * reference server at it with PORTICO_OAUTH_BASE_URL=http://127.0.0.1:8792 (npm start does).
 */
import { serve } from '@hono/node-server'
import { createOAuthIdp } from './server'

const port = Number(process.env.PORTICO_IDP_PORT ?? 8792)
const hostname = process.env.PORTICO_IDP_HOST ?? '127.0.0.1'
const { app } = await createOAuthIdp({ origin: process.env.PORTICO_IDP_ORIGIN ?? `http://${hostname}:${port}` })
const server = serve({ fetch: app.fetch, port, hostname }, (info) => {
  console.log(`[oauth-idp] local identity provider stand-in (Google, Apple, GitHub, …) on http://${hostname}:${info.port}`)
})
const stop = () => server.close(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
