/**
 * Funding routes over real HTTP, against the local stand-ins of MoonPay and Coinbase
 * (examples/stand-ins): the MoonPay widget URL is signed so that the stand-in's page accepts
 * it (MoonPay's check), Coinbase's session-token and status APIs verify our CDP JWT; no
 * response or log line carries a secret; bad addresses are refused; nothing answers 5xx.
 */
import { readFileSync } from 'node:fs'
import { serve } from '@hono/node-server'
import { pino } from 'pino'
import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Store } from '../src/core/store'
import { DEV_COINBASE_PUBLIC_JWK, DEV_FUNDING, fundingWire } from '../src/funding-config'
import { createCoinbaseStandIn } from '../../stand-ins/coinbase/server'
import { createMoonPayStandIn, verifyMoonPaySignature } from '../../stand-ins/moonpay/server'
import { APPS_FILE, startTestServer, uniqueEmail, type TestServer, openTestStore } from './helpers'

const FND = 'portico-test-fnd-00000001'
const OFF = 'portico-test-fnd-nofund01'
const DEAD = 'portico-test-fnd-unreach1'
const EVM = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const SOL = 'HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH'
const SECRETS = [DEV_FUNDING.moonpay.secretKey, DEV_FUNDING.moonpay.sandboxSecretKey, 'MHcCAQEEIFI2xTvpce7bdqN9']

let store: Store
let s: TestServer
let token = ''
let logs = ''
const stops: (() => void)[] = []
const moonpay = createMoonPayStandIn({
  keys: { [DEV_FUNDING.moonpay.apiKey]: DEV_FUNDING.moonpay.secretKey, [DEV_FUNDING.moonpay.sandboxApiKey]: DEV_FUNDING.moonpay.sandboxSecretKey },
})
const coinbase = createCoinbaseStandIn({ keys: { [DEV_FUNDING.coinbase.apiKeyName]: { ...DEV_COINBASE_PUBLIC_JWK } }, projectId: DEV_FUNDING.coinbase.projectId })

async function listen(fetch: (r: Request) => Response | Promise<Response>): Promise<string> {
  const server = serve({ fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())))
  stops.push(() => server.close())
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`
}

/** A loopback address nothing listens on: a port the system handed out, then closed. */
async function closedPortUrl(): Promise<string> {
  const server = serve({ fetch: () => new Response(null), port: 0, hostname: '127.0.0.1' })
  await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())))
  const port = (server.address() as { port: number }).port
  await new Promise<void>((r) => server.close(() => r()))
  return `http://127.0.0.1:${port}`
}

beforeAll(async () => {
  const mp = await listen(moonpay.app.fetch)
  const cb = await listen(coinbase.app.fetch)
  const dead = await closedPortUrl()
  const base = JSON.parse(readFileSync(APPS_FILE, 'utf8')).apps[0]
  store = await openTestStore()
  const sink = new Writable({ write: (chunk, _e, cb2) => void ((logs += chunk.toString()), cb2()) })
  s = await startTestServer(store, {
    logger: pino({ level: 'debug' }, sink),
    apps: [
      ...JSON.parse(readFileSync(APPS_FILE, 'utf8')).apps,
      {
        ...base,
        id: FND,
        funding: {
          moonpay: { useSandbox: true, widgetUrl: mp, sandboxWidgetUrl: mp, apiUrl: mp, sandboxApiUrl: mp },
          coinbase: { apiUrl: cb, payUrl: cb },
        },
      },
      { ...base, id: OFF, funding: null },
      { ...base, id: DEAD, funding: { moonpay: { useSandbox: true, widgetUrl: dead, sandboxWidgetUrl: dead, apiUrl: dead, sandboxApiUrl: dead }, coinbase: { apiUrl: dead, payUrl: dead } } },
    ],
  })
  token = (await s.emailLogin(uniqueEmail('fund'), { appId: FND })).body.token!
})
afterAll(async () => {
  await s?.close()
  await store?.close()
  for (const stop of stops) stop()
})

const noSecrets = (text: string) => {
  for (const x of SECRETS) expect(text).not.toContain(x)
}

describe('app config', () => {
  it('carries funding_config without secrets', async () => {
    const r = await s.call(`/api/v1/apps/${FND}`, { appId: FND })
    expect(r.status).toBe(200)
    expect(r.body.funding_config.moonpay).toMatchObject({ use_sandbox: true, sandbox_api_key: DEV_FUNDING.moonpay.sandboxApiKey })
    expect(r.body.funding_config.coinbase.pay_url).toMatch(/^http:\/\/127\.0\.0\.1:/)
    noSecrets(JSON.stringify(r.body))
    expect((await s.call(`/api/v1/apps/${OFF}`, { appId: OFF })).body.funding_config).toBeNull()
    expect(fundingWire({ funding: { enabled: false } })).toBeNull()
  })
})

describe('POST /plugins/moonpay_on_ramp/sign', () => {
  const path = '/api/v1/plugins/moonpay_on_ramp/sign'
  it('signs the widget URL the way MoonPay checks it (sandbox keys by the flag)', async () => {
    const r = await s.call(path, {
      appId: FND,
      token,
      body: { address: EVM, useSandbox: true, config: { currencyCode: 'eth', quoteCurrencyAmount: 0.05, paymentMethod: 'credit_debit_card', uiConfig: { accentColor: '#5b4cdb', theme: 'dark' } } },
    })
    expect(r.status).toBe(200)
    const u = new URL(r.body.signedUrl)
    expect(u.searchParams.get('apiKey')).toBe(DEV_FUNDING.moonpay.sandboxApiKey)
    expect(u.searchParams.get('walletAddress')).toBe(EVM)
    expect(u.searchParams.get('externalTransactionId')).toBe(r.body.externalTransactionId)
    expect(u.searchParams.get('colorCode')).toBe('#5b4cdb')
    expect(verifyMoonPaySignature(u.search, { [DEV_FUNDING.moonpay.sandboxApiKey]: DEV_FUNDING.moonpay.sandboxSecretKey }).ok).toBe(true)
    // The stand-in's widget page accepts it; a tampered URL is refused.
    expect((await fetch(r.body.signedUrl)).status).toBe(200)
    expect((await fetch(r.body.signedUrl.replace(EVM, '0x' + '1'.repeat(40)))).status).toBe(400)
    noSecrets(JSON.stringify(r.body))
  })
  it('live keys without the sandbox flag; Solana addresses for sol codes', async () => {
    const live = await s.call(path, { appId: FND, token, body: { address: EVM, useSandbox: false } })
    expect(new URL(live.body.signedUrl).searchParams.get('apiKey')).toBe(DEV_FUNDING.moonpay.apiKey)
    const sol = await s.call(path, { appId: FND, token, body: { address: SOL, config: { currencyCode: 'sol' } } })
    expect(sol.status).toBe(200)
  })
  it('refuses bad addresses, missing auth, apps without funding', async () => {
    for (const address of ['0x123', SOL, '', 'x'.repeat(100)]) {
      const r = await s.call(path, { appId: FND, token, body: { address } })
      expect(r.status, address).toBeGreaterThanOrEqual(400)
      expect(r.status).toBeLessThan(500)
    }
    expect((await s.call(path, { appId: FND, token, body: { address: EVM, config: { currencyCode: 'sol' } } })).status).toBe(400)
    expect((await s.call(path, { appId: FND, body: { address: EVM } })).status).toBe(401)
    const other = (await s.emailLogin(uniqueEmail('off'), { appId: OFF })).body.token!
    const off = await s.call(path, { appId: OFF, token: other, body: { address: EVM } })
    expect(off.status).toBe(403)
    expect(off.body.error).toBe('Wallet funding is not enabled')
  })
})

describe('Coinbase onramp', () => {
  const init = '/api/v1/funding/coinbase_on_ramp/init'
  it('init: a session token from Coinbase (our CDP JWT verified), bound partner id', async () => {
    const r = await s.call(init, { appId: FND, token, body: { addresses: [{ address: EVM, blockchains: ['base', 'ethereum'] }], assets: ['ETH', 'USDC'] } })
    expect(r.status).toBe(200)
    expect(Object.keys(r.body).sort()).toEqual(['app_id', 'partner_user_id', 'session_token'])
    expect(r.body.app_id).toBe(DEV_FUNDING.coinbase.projectId)
    expect(coinbase.sessions.get(r.body.session_token)?.assets).toEqual(['ETH', 'USDC'])
    expect(coinbase.jwtCalls.at(-1)).toEqual({ uri: expect.stringMatching(/^POST 127\.0\.0\.1:\d+\/onramp\/v1\/token$/), ok: true })
    noSecrets(JSON.stringify(r.body))

    const status = (id: string, t = token) => s.call(`/api/v1/funding/coinbase_on_ramp/status?partnerUserId=${encodeURIComponent(id)}`, { appId: FND, token: t })
    expect((await status(r.body.partner_user_id)).body).toEqual({ status: 'pending' })
    // The pay page (as cbpay-js builds it) and its 'Complete purchase' form.
    const pay = await fetch(`${(await s.call(`/api/v1/apps/${FND}`, { appId: FND })).body.funding_config.coinbase.pay_url}/buy/select-asset?appId=${r.body.app_id}&sessionToken=${r.body.session_token}&partnerUserId=${r.body.partner_user_id}`)
    expect(pay.status).toBe(200)
    expect((await status(r.body.partner_user_id)).body).toEqual({ status: 'pending' })
    coinbase.transactions.get(r.body.partner_user_id)![0].status = 'ONRAMP_TRANSACTION_STATUS_SUCCESS'
    expect((await status(r.body.partner_user_id)).body).toEqual({ status: 'success' })
    coinbase.transactions.get(r.body.partner_user_id)![0].status = 'ONRAMP_TRANSACTION_STATUS_FAILED'
    expect((await status(r.body.partner_user_id)).body).toEqual({ status: 'failure' })
    // Another user cannot read it.
    const other = (await s.emailLogin(uniqueEmail('other'), { appId: FND })).body.token!
    expect((await status(r.body.partner_user_id, other)).status).toBe(404)
    expect((await status('short')).status).toBe(400)
    expect((await status('')).status).toBe(400)
  })
  it('refuses bad addresses and Solana addresses on EVM networks', async () => {
    for (const addresses of [[{ address: '0xabc', blockchains: ['base'] }], [{ address: SOL, blockchains: ['base'] }], [{ address: EVM, blockchains: ['solana'] }], [{ address: SOL, blockchains: ['solana', 'base'] }], []]) {
      const r = await s.call(init, { appId: FND, token, body: { addresses } })
      expect(r.status, JSON.stringify(addresses)).toBeGreaterThanOrEqual(400)
      expect(r.status).toBeLessThan(500)
    }
    expect((await s.call(init, { appId: FND, token, body: { addresses: [{ address: SOL, blockchains: ['solana'] }], assets: ['SOL'] } })).status).toBe(200)
    expect((await s.call(init, { appId: FND, body: { addresses: [{ address: EVM, blockchains: ['base'] }] } })).status).toBe(401)
  })
  it('an unreachable provider answers 424, never 5xx', async () => {
    // Not the demo app's npm-start stand-in port: a running `npm start` answers there.
    const user = (await s.emailLogin(uniqueEmail('dead'), { appId: DEAD })).body.token!
    const r = await s.call(init, { appId: DEAD, token: user, body: { addresses: [{ address: EVM, blockchains: ['base'] }] } })
    expect(r.status).toBe(424)
  })
  it('no secret in any log line', () => {
    expect(logs.length).toBeGreaterThan(0)
    noSecrets(logs)
    expect(logs).not.toMatch(/session_token|eyJhbGciOiJFUzI1NiIs/)
  })
})
