/**
 * The delegation consent page on the wallet frame's origin (issue 26): its strict CSP
 * (embeddable only by the app's allowed origins), the app's name from the server's settings
 * (not from the host), its query checks, its script; and the hidden wallet frame, which
 * refuses a consent message outright (a message is not the user's click).
 */
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { loadApps } from '../src/config'
import { consentQuery, registerConsentPage } from '../src/consent-page'
import { exportCsp } from '../src/export-page'
import { handlerFor } from '../frame/handlers/index'
import { CONSENT_ELSEWHERE } from '../frame/handlers/delegation'
import { AUTHORIZE_ELSEWHERE } from '../frame/handlers/authorize'
import { registerAuthorizePage } from '../src/authorize-page'
import { AUTHORIZE_FRAME_TEXTS, checkAuthorizePayload, implementationName } from '../frame/authorize/sign'
import { APPS_FILE } from './helpers'

const XPD = 'portico-test-xpd-00000001'
const apps = loadApps(APPS_FILE)
const app = new Hono()
registerConsentPage(app, { apps, apiUrl: 'http://127.0.0.1:8787', minify: false })
registerAuthorizePage(app, { apps, apiUrl: 'http://127.0.0.1:8787', minify: false })
const page = (q: Record<string, string>, appId = XPD) => app.request(`/apps/${appId}/embedded-wallets/delegate?${new URLSearchParams(q)}`)

describe('the consent page', () => {
  it('is served with its own strict CSP, embeddable only by the app’s allowed origins, with the app’s name from the server', async () => {
    const r = await page({ theme: 'dark', accent_color: '#5b4cdb' })
    expect(r.status).toBe(200)
    const csp = r.headers.get('content-security-policy')!
    expect(csp).toBe(exportCsp('http://127.0.0.1:8787', apps.get(XPD)!.allowedOrigins))
    expect(csp).toContain(`frame-ancestors ${apps.get(XPD)!.allowedOrigins.join(' ')}`)
    expect(csp).not.toContain('unsafe')
    expect(r.headers.get('cache-control')).toBe('no-store')
    const html = await r.text()
    const config = JSON.parse(/<script type="application\/json" id="portico-consent-config">(.*?)<\/script>/.exec(html)![1])
    expect(config).toMatchObject({ appId: XPD, appName: 'Export Delegation Test', theme: 'dark', colors: { accent: '#5b4cdb' }, allowedOrigins: apps.get(XPD)!.allowedOrigins })
    expect(html).not.toMatch(/style=|<style/)
  })

  it('refuses anything but its public settings; an unknown app is 404', async () => {
    expect((await page({ theme: 'blue' })).status).toBe(400)
    expect((await page({ accent_color: 'red;background:url(x)' })).status).toBe(400)
    expect((await page({}, 'portico-test-app-99999999')).status).toBe(404)
    expect(consentQuery(() => undefined)).toEqual({ ok: true, value: { theme: 'light', colors: {} } })
  })

  it('its script bundles (no eval, no inline style) and its stylesheet is served', async () => {
    const js = await app.request('/embedded-wallets/delegate/page.js')
    expect(js.status).toBe(200)
    const code = await js.text()
    expect(code).toContain('isTrusted')
    expect(code).not.toMatch(/\beval\(|new Function\(/)
    const css = await app.request('/embedded-wallets/delegate/page.css')
    expect(css.status).toBe(200)
    expect(css.headers.get('content-type')).toContain('text/css')
  }, 60_000)
})

describe('the hidden wallet frame', () => {
  it('refuses delegated-actions:consent: only the consent page, with the user’s click, delegates', async () => {
    const h = handlerFor('delegated-actions:consent')!
    await expect(h({ accessToken: 't', entropyId: '0x1', entropyIdVerifier: 'ethereum-address-verifier', address: '0x1', chainType: 'ethereum', walletIndex: 0 } as never, {} as never)).rejects.toThrow(CONSENT_ELSEWHERE)
  })
})

describe('the EIP-7702 authorisation page (issue 29)', () => {
  it('is served like the consent page: its own strict CSP, the app’s name from the server, its script and the shared stylesheet', async () => {
    const r = await app.request(`/apps/${XPD}/embedded-wallets/authorize?theme=dark`)
    expect(r.status).toBe(200)
    expect(r.headers.get('content-security-policy')).toBe(exportCsp('http://127.0.0.1:8787', apps.get(XPD)!.allowedOrigins))
    expect(r.headers.get('cache-control')).toBe('no-store')
    const html = await r.text()
    const config = JSON.parse(/<script type="application\/json" id="portico-authorize-config">(.*?)<\/script>/.exec(html)![1])
    expect(config).toMatchObject({ appId: XPD, appName: 'Export Delegation Test', theme: 'dark' })
    expect(html).not.toMatch(/style=|<style/)
    expect((await app.request(`/apps/${XPD}/embedded-wallets/authorize?theme=blue`)).status).toBe(400)
    const code = await (await app.request('/embedded-wallets/authorize/page.js')).text()
    expect(code).toContain('isTrusted')
    expect(code).toContain('signAuthorization')
    expect(code).not.toMatch(/\beval\(|new Function\(/)
    expect((await app.request('/embedded-wallets/authorize/page.css')).headers.get('content-type')).toContain('text/css')
  }, 60_000)

  it('refuses, before showing anything, a contract it does not know, chain id 0 (every chain) and a bad nonce or address', () => {
    const ok = { accessToken: 't', entropyId: '0x1', entropyIdVerifier: 'ethereum-address-verifier' as const, address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', chainId: 31337, contractAddress: '0xe6Cae83BdE06E4c305530e199D7217f42808555B', nonce: 0 }
    expect(() => checkAuthorizePayload(ok)).not.toThrow()
    expect(implementationName(ok.contractAddress)).toBe('Simple7702Account (EntryPoint v0.8)')
    // A drainer the host names: refused.
    expect(() => checkAuthorizePayload({ ...ok, contractAddress: '0x000000000000000000000000000000000000dEaD' })).toThrow(AUTHORIZE_FRAME_TEXTS.unknownContract)
    expect(() => checkAuthorizePayload({ ...ok, chainId: 0 })).toThrow(AUTHORIZE_FRAME_TEXTS.chainId)
    expect(() => checkAuthorizePayload({ ...ok, nonce: -1 })).toThrow(AUTHORIZE_FRAME_TEXTS.nonce)
    expect(() => checkAuthorizePayload({ ...ok, address: 'me' })).toThrow(AUTHORIZE_FRAME_TEXTS.address)
  })

  it('the hidden wallet frame refuses smart-wallet:authorize-7702: only the page, with the user’s click, signs', async () => {
    const h = handlerFor('smart-wallet:authorize-7702')!
    await expect(h({} as never, {} as never)).rejects.toThrow(AUTHORIZE_ELSEWHERE)
  })
})
