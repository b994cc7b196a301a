#!/usr/bin/env node
/**
 * `npm start`: the demo on one site, http://localhost (scripts/demo-config.mjs): the app (a
 * production build, served on 5173), the reference server (8787) and its wallet frame (8788),
 * with the local stand-ins of the outside services (OAuth identity provider 8792, chains, cloud
 * drive, funding providers, WalletConnect relay). `npm start -- --cross-site` (or
 * PORTICO_DEMO_CROSS_SITE=1) puts the API and the frame on http://127.0.0.1 instead: a
 * third-party frame, as a wallet service on another domain is.
 * No extra dependencies: child processes, their output prefixed, all stopped on Ctrl-C.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { DEMO_AA, crossSiteRequested, demoApps, demoConfig } from './demo-config.mjs'
import { buildDemoApp, serveBuiltApp } from './demo-build.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const bin = (name) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url))
const demo = demoConfig({ crossSite: crossSiteRequested() })
const API = demo.urls.api
const APP = demo.urls.app
const IDP = demo.urls.idp

const children = []
function run(label, cmd, args, env = {}) {
  const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  const prefix = (stream, out) => {
    let rest = ''
    stream.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n')
      rest = lines.pop()
      for (const line of lines) out.write(`[${label}] ${line}\n`)
    })
  }
  prefix(child.stdout, process.stdout)
  prefix(child.stderr, process.stderr)
  child.on('exit', (code, signal) => {
    console.log(`[${label}] exited (${signal ?? code})`)
    stop(code ?? 1)
  })
  children.push(child)
  return child
}

let stopping = false
function stop(code = 0) {
  if (stopping) return
  stopping = true
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM')
  appServer?.close()
  setTimeout(() => process.exit(code), 500).unref()
}
process.on('SIGINT', () => stop(0))
process.on('SIGTERM', () => stop(0))

// Approvals: token prices from the local price stand-in (8797), SPL token info from the local
// SVM (8899, its demo token shown as USDC), unless set otherwise.
process.env.PORTICO_PRICE_URL ??= 'http://127.0.0.1:8797'
process.env.PORTICO_SOLANA_RPC_URLS ??= JSON.stringify({ localnet: 'http://127.0.0.1:8899' })
process.env.PORTICO_SPL_TOKENS ??= JSON.stringify({ 'C2SenzsNb8ogniUvPu7s2HoKxDRzi39ZmEasRj6NPna6': 'USDC' })
if (process.env.PORTICO_PRICE_URL === 'http://127.0.0.1:8797') run('price', bin('tsx'), ['examples/stand-ins/price/main.ts'])

// Social logins go to the local stand-in unless PORTICO_OAUTH_BASE_URL is set (to '' for the real providers).
const oauthBase = process.env.PORTICO_OAUTH_BASE_URL ?? IDP
// Wallet recovery to the cloud (issue 14): the local Google Drive / iCloud stand-in on 8793,
// unless PORTICO_CLOUD_DRIVE_BASE_URL is set ('' for the real providers). The server reads the
// same variable, so it is set here, before the server starts.
process.env.PORTICO_CLOUD_DRIVE_BASE_URL ??= 'http://127.0.0.1:8793'
if (process.env.PORTICO_CLOUD_DRIVE_BASE_URL === 'http://127.0.0.1:8793') {
  run('cloud-drive', bin('tsx'), ['examples/stand-ins/cloud-drive/main.ts'], { PORTICO_CLOUD_DRIVE_PORT: '8793', PORTICO_CLOUDKIT_SIGNIN_CALLBACK: demo.cloudKitSignInCallback })
}
// The operators' console (/admin): its first owner signs in with this e-mail (code in the dev outbox).
process.env.PORTICO_ADMIN_OWNER_EMAIL ??= 'owner@example.com'
// The demo app's smart wallets run on the local ERC-4337 stack: apps.json plus those development
// settings (apps.json itself stays loadable in production mode), unless APPS_FILE names another.
if (!process.env.APPS_FILE) {
  const dir = fileURLToPath(new URL('../node_modules/.cache/portico-demo/', import.meta.url))
  mkdirSync(dir, { recursive: true })
  const file = `${dir}apps.json`
  writeFileSync(file, JSON.stringify(demoApps(JSON.parse(readFileSync(new URL('../examples/server/apps.json', import.meta.url), 'utf8')), demo.urls), null, 2))
  process.env.APPS_FILE = file
}
// The server's public URLs are the ones the browser uses (OAuth redirect URI, the frame's API).
run('server', bin('tsx'), ['examples/server/src/main.ts', '--dev'], { ...demo.serverEnv, PORTICO_OAUTH_BASE_URL: oauthBase })
if (oauthBase === IDP) run('oauth-idp', bin('tsx'), ['examples/server/idp/main.ts'], { PORTICO_IDP_PORT: '8792' })
// The third-party plugin example's identity provider (Acme ID), for ?app=portico-test-acmeid-00001.
run('acme-id', bin('tsx'), ['examples/custom-plugin/idp/main.ts'])
// The demo app: a production build (rebuilt when a source changed), so the first modal open is
// as fast as in a deployed app; it creates embedded wallets on login (the frame is the server's
// second listener, 8788).
let appServer = null
const appReady = (async () => {
  const t0 = Date.now()
  const { dir, built } = await buildDemoApp(demo.appEnv, (line) => console.log(`[app] ${line}`))
  console.log(`[app] ${built ? `built in ${((Date.now() - t0) / 1000).toFixed(1)} s` : 'sources unchanged: the previous build'} (${dir})`)
  appServer = await serveBuiltApp(dir, { port: demo.ports.app, host: demo.listenHost, canonical: APP })
  if (stopping) appServer.close()
})()
appReady.catch((err) => {
  console.error(`[app] ${err.message}`)
  stop(1)
})

// Embedded wallets (issue 14) and smart wallets (issue 29): the local EVM chain on 8545 is the
// ERC-4337 stack's anvil (EntryPoints, Safe, paymasters) with the Alto bundler on 4337; the
// wallet frame itself is the server's second listener (PORTICO_FRAME_PORT, 8788).
run('evm', bin('tsx'), ['examples/stand-ins/aa/main.ts'], { PORTICO_AA_RPC_PORT: String(demo.ports.evm), PORTICO_AA_BUNDLER_PORT: String(demo.ports.bundler), PORTICO_PAYMASTER_KEY: DEMO_AA.paymasterKey, PORTICO_API_URL: API })
// Funding stand-ins (MoonPay 8794, Coinbase Onramp 8795, bridge provider 8796): the demo app's funding config points at them.
run('moonpay', bin('tsx'), ['examples/stand-ins/moonpay/main.ts'])
run('coinbase', bin('tsx'), ['examples/stand-ins/coinbase/main.ts'])
run('bridge', bin('tsx'), ['examples/stand-ins/bridge/main.ts'])
// WalletConnect relay stand-in (ws://127.0.0.1:8798): the walletconnect plugin pairs through it offline.
run('wc-relay', bin('tsx'), ['examples/stand-ins/walletconnect-relay/main.ts'], { PORTICO_WC_RELAY_PORT: '8798' })
// Farcaster client API stand-in (8799, signed key requests for Farcaster signers): deploys the
// IdRegistry on the local chain and registers the demo app's FID (scripts/demo-config.mjs DEMO_FARCASTER).
run('farcaster-client', bin('tsx'), ['examples/stand-ins/farcaster-client/main.ts'], { PORTICO_FARCASTER_CLIENT_PORT: String(demo.ports.farcasterClient), PORTICO_EVM_RPC: demo.urls.evm })

// Approvals: Solana on the SVM JSON-RPC stand-in (litesvm, a real SVM) on 8899 with a demo SPL
// token; the demo ERC-20 (DUSD) deployed on the local EVM chain once it answers (then exits).
run('svm', bin('tsx'), ['examples/stand-ins/svm/main.ts'], { PORTICO_SVM_PORT: '8899' })
spawn(bin('tsx'), ['scripts/evm-demo-token.ts'], { cwd: root, stdio: 'inherit' })

// The banner once the app is served and the API and the frame answer (the others have had a moment to start).
async function answering(url) {
  for (;;) {
    if (stopping) return
    try {
      if ((await fetch(url)).ok) return
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 250))
  }
}
Promise.all([appReady, answering(demo.health.api), answering(demo.health.frame), new Promise((r) => setTimeout(r, 2500))]).then(() => {
  if (stopping) return
  console.log(`
  Portico demo
    open the app:        ${APP}  (${demo.crossSite ? 'cross-site: the API and the wallet frame on 127.0.0.1, a third-party frame' : 'one site: app, API and wallet frame on localhost; passkeys work'})
    API server:          ${API}/api/v1
    login codes appear:  in the [server] lines above and at ${API}/dev/outbox
    other configs:       ${APP}/?layout=groups&theme=dark&accent=%23e4572e (see examples/app/src/settings.ts)
    third-party plugin:  ${APP}/?app=portico-test-acmeid-00001 (Acme ID on http://127.0.0.1:8791)
    embedded wallets:    created on login; frame on ${demo.urls.frame}, local chain ${demo.urls.evm} (anvil)
                         (fund one: npx tsx scripts/evm-fund.ts <address> 1)
    smart wallets:       ${APP}/?sw=1 (a Safe, sponsored by the server's paymaster; bundler ${demo.urls.bundler});
                         ${APP}/?sw=1&sw7702=1 (the embedded wallet upgraded in place, EIP-7702)
    WalletConnect relay: ws://127.0.0.1:8798 (stand-in; pair a wallet client with the QR's wc: link)
    Solana (litesvm):    http://127.0.0.1:8899 (demo SPL token shown as USDC); prices: stand-in on 8797
    funding stand-ins:   MoonPay 8794, Coinbase 8795, bridge 8796; cloud drive (recovery) 8793
    Farcaster signers:   client API stand-in on ${demo.urls.farcasterClient} (approve: POST /test/signed-key-requests/approve {key, userFid})
    operators' console:  ${API}/admin  (sign in as ${process.env.PORTICO_ADMIN_OWNER_EMAIL}; the code appears as above)
    social logins:       ${oauthBase === IDP ? `local stand-in identity provider on ${IDP} (no real Google account)` : oauthBase || 'the real providers'}
  Ctrl-C stops them all.
`)
}, () => {})
