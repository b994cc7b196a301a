/**
 * Start the local cloud-drive stand-in (Google OAuth + Drive v3 appDataFolder, CloudKit web
 * services) for the wallet's cloud recovery:
 *
 *   npx tsx examples/stand-ins/cloud-drive/main.ts
 *
 * PORTICO_CLOUD_DRIVE_PORT (8793) and PORTICO_CLOUD_DRIVE_HOST (127.0.0.1) set where it
 * listens; PORTICO_CLOUDKIT_SIGNIN_CALLBACK the page CloudKit's sign-in returns to (the demo
 * app's page with ?portico_recovery_popup=icloud, as a CloudKit dashboard's sign-in callback
 * would be set). Point the server at it with PORTICO_CLOUD_DRIVE_BASE_URL (npm start does).
 */
import { serve } from '@hono/node-server'
import { createCloudDrive } from './server'

const port = Number(process.env.PORTICO_CLOUD_DRIVE_PORT ?? 8793)
const hostname = process.env.PORTICO_CLOUD_DRIVE_HOST ?? '127.0.0.1'
const { app } = createCloudDrive({
  origin: `http://${hostname}:${port}`,
  cloudkit: {
    container: process.env.PORTICO_CLOUDKIT_CONTAINER ?? 'iCloud.dev.portico.recovery',
    apiToken: process.env.PORTICO_CLOUDKIT_API_TOKEN ?? 'local-stand-in-cloudkit-api-token',
    signInCallback: process.env.PORTICO_CLOUDKIT_SIGNIN_CALLBACK ?? 'http://127.0.0.1:5173/?portico_recovery_popup=icloud',
  },
})
const server = serve({ fetch: app.fetch, port, hostname }, (info) => {
  console.log(`[cloud-drive] local Google Drive / iCloud stand-in on http://${hostname}:${info.port}`)
})
const stop = () => server.close(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
