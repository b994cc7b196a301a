#!/usr/bin/env node
/**
 * `npm start`: the reference server (port 8787, wallet frame 8788), the demo app (Vite, port
 * 5173), the local OAuth identity provider stand-in (port 8792: 'Continue with Google' etc. work
 * offline) and a local EVM chain (hardhat, 8545) together.
 * No extra dependencies: two child processes, their output prefixed, both stopped on Ctrl-C.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const bin = (name) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url))
const API = 'http://127.0.0.1:8787'
const APP = 'http://127.0.0.1:5173'
const IDP = 'http://127.0.0.1:8792'

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
  run('cloud-drive', bin('tsx'), ['examples/stand-ins/cloud-drive/main.ts'], { PORTICO_CLOUD_DRIVE_PORT: '8793', PORTICO_CLOUDKIT_SIGNIN_CALLBACK: `${APP}/?portico_recovery_popup=icloud` })
}
run('server', bin('tsx'), ['examples/server/src/main.ts', '--dev'], { PORT: '8787', PORTICO_OAUTH_BASE_URL: oauthBase })
if (oauthBase === IDP) run('oauth-idp', bin('tsx'), ['examples/server/idp/main.ts'], { PORTICO_IDP_PORT: '8792' })
// The third-party plugin example's identity provider (Acme ID), for ?app=portico-test-acmeid-00001.
run('acme-id', bin('tsx'), ['examples/custom-plugin/idp/main.ts'])
run('app', bin('vite'), ['--config', 'examples/app/vite.config.ts', '--host', '127.0.0.1', '--port', '5173', '--strictPort'], {
  // The demo creates embedded wallets on login (the frame is the server's second listener, 8788).
  VITE_PORTICO_CREATE_ON_LOGIN: 'users-without-wallets',
})

// Embedded wallets (issue 14): the local EVM chain (hardhat 2 on 8545) for balances and sends;
// the wallet frame itself is the server's second listener (PORTICO_FRAME_PORT, 8788).
run('evm', bin('tsx'), ['scripts/evm-node.ts'], { PORTICO_EVM_PORT: '8545' })
// Funding stand-ins (MoonPay 8794, Coinbase Onramp 8795, bridge provider 8796): the demo app's funding config points at them.
run('moonpay', bin('tsx'), ['examples/stand-ins/moonpay/main.ts'])
run('coinbase', bin('tsx'), ['examples/stand-ins/coinbase/main.ts'])
run('bridge', bin('tsx'), ['examples/stand-ins/bridge/main.ts'])
// WalletConnect relay stand-in (ws://127.0.0.1:8798): the walletconnect plugin pairs through it offline.
run('wc-relay', bin('tsx'), ['examples/stand-ins/walletconnect-relay/main.ts'], { PORTICO_WC_RELAY_PORT: '8798' })

// Approvals: Solana on the SVM JSON-RPC stand-in (litesvm, a real SVM) on 8899 with a demo SPL
// token; the demo ERC-20 (DUSD) deployed on the local EVM chain once it answers (then exits).
run('svm', bin('tsx'), ['examples/stand-ins/svm/main.ts'], { PORTICO_SVM_PORT: '8899' })
spawn(bin('tsx'), ['scripts/evm-demo-token.ts'], { cwd: root, stdio: 'inherit' })

setTimeout(() => {
  console.log(`
  Portico demo
    open the app:        ${APP}
    API server:          ${API}/api/v1
    login codes appear:  in the [server] lines above and at ${API}/dev/outbox
    other configs:       ${APP}/?layout=groups&theme=dark&accent=%23e4572e (see examples/app/src/settings.ts)
    third-party plugin:  ${APP}/?app=portico-test-acmeid-00001 (Acme ID on http://127.0.0.1:8791)
    embedded wallets:    created on login; frame on http://127.0.0.1:8788, local chain http://127.0.0.1:8545
                         (fund one: npx tsx scripts/evm-fund.ts <address> 1)
    WalletConnect relay: ws://127.0.0.1:8798 (stand-in; pair a wallet client with the QR's wc: link)
    Solana (litesvm):    http://127.0.0.1:8899 (demo SPL token shown as USDC); prices: stand-in on 8797
    funding stand-ins:   MoonPay 8794, Coinbase 8795, bridge 8796; cloud drive (recovery) 8793
    social logins:       ${oauthBase === IDP ? `local stand-in identity provider on ${IDP} (no real Google account)` : oauthBase || 'the real providers'}
  Ctrl-C stops them all.
`)
}, 2500)
