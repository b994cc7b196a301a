import { serve } from '@hono/node-server'
import { createServer } from './app'
import { openStore } from './store'

const port = Number(process.env.PORT ?? 8787)
const hostname = process.env.HOST ?? '127.0.0.1'
const dev = process.env.NODE_ENV !== 'production' || process.env.PORTICO_DEV === '1'

const store = await openStore({
  databaseUrl: process.env.DATABASE_URL || undefined,
  dataDir: process.env.DATA_DIR ?? '.data',
})
const app = await createServer({
  store,
  appsFile: process.env.APPS_FILE ?? new URL('../apps.json', import.meta.url).pathname,
  dev,
  smtpUrl: process.env.SMTP_URL || undefined,
  mailFrom: process.env.MAIL_FROM || undefined,
  trustProxy: process.env.TRUST_PROXY === '1',
})

const server = serve({ fetch: app.fetch, port, hostname }, (info) => {
  console.log(
    `[portico] server on http://${hostname}:${info.port} (${store.kind}${dev ? ', development mode: codes on console and /dev/outbox' : ''})`,
  )
})

const stop = async () => {
  server.close()
  await store.close().catch(() => {})
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
