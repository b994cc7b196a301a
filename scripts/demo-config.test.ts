/**
 * `npm start`'s addresses (scripts/demo-config.mjs) against the settings the server and the
 * frame enforce: the app, the API and the frame on one site (localhost) by default, every one
 * of them allowed where it must be (CORS, frame-ancestors, passkey relying party, OAuth
 * redirect, CloudKit's callback); the cross-site option keeps the API and frame on 127.0.0.1.
 * The demo started for real: test/e2e/demo-start.spec.ts.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
// @ts-expect-error a plain ESM script without types
import { DEMO_AA, DEMO_FARCASTER, DEMO_PORTS, crossSiteRequested, demoApps, demoConfig } from './demo-config.mjs'
import { paymasterAddresses } from '../examples/stand-ins/aa/stack'
import { smartWalletProblems } from '../examples/server/src/features/smart-wallets/config'
import { getContractAddress, keccak256, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { signerConfig } from '../examples/server/src/features/farcaster-signer/service'
import { appsFrom, type AppSettings } from '../examples/server/src/config'
import { frameCsp } from '../examples/server/src/frame-server'
import { relyingParty } from '../examples/server/src/features/passkeys/webauthn'
import { loadEnv } from '../examples/server/src/settings'

const apps = JSON.parse(readFileSync(new URL('../examples/server/apps.json', import.meta.url), 'utf8')).apps as AppSettings[]
const demoApp = appsFrom(apps).get('portico-demo-app-00000001')!
const host = (u: string) => new URL(u).hostname

describe('npm start: one site', () => {
  const c = demoConfig()

  it('serves the app, the API and the wallet frame on localhost (the banner’s URL)', () => {
    expect([host(c.urls.app), host(c.urls.api), host(c.urls.frame)]).toEqual(['localhost', 'localhost', 'localhost'])
    expect(c.appEnv.VITE_PORTICO_API_URL).toBe(c.urls.api)
    expect(c.appEnv.VITE_PORTICO_FRAME_URL).toBe(c.urls.frame)
    // The server's public URLs are the browser's (the frame checks the API's origin, the API the frame's).
    const env = loadEnv({ ...c.serverEnv }, true)
    expect(env.PORTICO_PUBLIC_URL).toBe(c.urls.api)
    expect(env.PORTICO_FRAME_URL).toBe(c.urls.frame)
    expect(env.PORT).toBe(DEMO_PORTS.api)
    expect(env.PORTICO_FRAME_PORT).toBe(DEMO_PORTS.frame)
  })

  it('uses one port per service', () => {
    const ports = Object.values(DEMO_PORTS)
    expect(new Set(ports).size).toBe(ports.length)
  })

  it('is allowed by the demo app: CORS origin, frame-ancestors, passkey relying party, CloudKit callback', () => {
    expect(demoApp.allowedOrigins).toContain(c.urls.app)
    const csp = frameCsp(c.urls.api, demoApp.allowedOrigins)
    expect(csp).toMatch(new RegExp(`frame-ancestors [^;]*${c.urls.app.replace(/[.:/]/g, '\\$&')}`))
    expect(csp).toContain(`connect-src ${c.urls.api}`)
    // A passkey made on the app's page: relying party 'localhost', the app's origin accepted.
    expect(relyingParty(demoApp, host(c.urls.app))).toEqual({ rpId: 'localhost', origins: expect.arrayContaining([c.urls.app]) })
    expect(demoApp.loginMethods).toContain('passkey')
    expect(demoApp.passkeysForSignupEnabled).toBe(true)
    expect(c.cloudKitSignInCallback.startsWith(`${c.urls.app}/`)).toBe(true)
  })

  it('lists every enabled login method of the demo app on the default landing (primary or More options)', () => {
    const order = demoApp.loginMethodsAndOrder!
    const shown = [...order.primary, ...(order.overflow ?? [])]
    for (const m of demoApp.loginMethods) expect(shown).toContain(m)
  })
})

describe('npm start -- --cross-site', () => {
  it('keeps the app on localhost and moves the API and the frame to 127.0.0.1 (a third-party frame)', () => {
    const c = demoConfig({ crossSite: true })
    expect([host(c.urls.app), host(c.urls.api), host(c.urls.frame)]).toEqual(['localhost', '127.0.0.1', '127.0.0.1'])
    expect(c.serverEnv.PORTICO_FRAME_URL).toBe(c.urls.frame)
    expect(frameCsp(c.urls.api, demoApp.allowedOrigins)).toContain(c.urls.app)
  })

  it('is asked for with --cross-site or PORTICO_DEMO_CROSS_SITE=1', () => {
    expect(crossSiteRequested([], {})).toBe(false)
    expect(crossSiteRequested(['--cross-site'], {})).toBe(true)
    expect(crossSiteRequested([], { PORTICO_DEMO_CROSS_SITE: '1' })).toBe(true)
  })
})

describe('npm start: Farcaster signers (issue 30)', () => {
  it("the stand-in's IdRegistry address, the demo app FID's custody key and the server's environment agree", () => {
    const c = demoConfig()
    const deployer = privateKeyToAccount(keccak256(toHex('portico-demo-idregistry-deployer')))
    expect(getContractAddress({ from: deployer.address, nonce: 0n })).toBe(DEMO_FARCASTER.idRegistry)
    expect(DEMO_FARCASTER.appCustodyKey).toBe(keccak256(toHex('portico-demo-farcaster-app-custody')))
    const env = loadEnv({ ...c.serverEnv }, true)
    expect(env.PORTICO_FARCASTER_CLIENT_API_URL).toBe(c.urls.farcasterClient)
    expect(env.PORTICO_FARCASTER_ID_REGISTRY).toBe(DEMO_FARCASTER.idRegistry)
    // The Farcaster test app signs its requests with the key the server's environment carries.
    const fc = appsFrom(apps).get('portico-test-farcaster-01')!
    expect(signerConfig(fc, c.serverEnv)).toEqual({ appFid: DEMO_FARCASTER.appFid, custodyKey: DEMO_FARCASTER.appCustodyKey, deadlineS: 86400 })
    expect(signerConfig(fc, {})).toBeUndefined()
  })
})

describe('npm start: smart wallets on the local ERC-4337 stack', () => {
  it('the paymasters’ addresses follow from the public demo key; the demo app’s settings pass the server’s checks in development mode only', () => {
    expect(DEMO_AA.paymasterKey).toBe(keccak256(toHex('portico-demo-paymaster-signer')))
    expect(paymasterAddresses(privateKeyToAccount(DEMO_AA.paymasterKey).address)).toEqual({ paymaster: DEMO_AA.paymaster, paymaster08: DEMO_AA.paymaster08 })
    const c = demoConfig()
    const file = demoApps({ apps }, c.urls)
    const demo = appsFrom(file.apps).get('portico-demo-app-00000001')!
    expect(smartWalletProblems(demo, true)).toEqual([])
    // apps.json itself keeps no development key (production-mode servers load it).
    expect(smartWalletProblems(demoApp, false)).toEqual([])
    expect(smartWalletProblems(demo, false).join('\n')).toMatch(/development mode only/)
    expect(JSON.parse(c.appEnv.VITE_PORTICO_SAFE_CONTRACTS)).toEqual(DEMO_AA.safe)
    expect(c.urls.bundler).toBe(`http://127.0.0.1:${DEMO_PORTS.bundler}`)
  })
})
