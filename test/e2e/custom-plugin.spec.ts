/**
 * The third-party example plugin (examples/custom-plugin, "Acme ID") end to end in Chromium:
 * the production demo app under its strict CSP, the reference server, and the example's
 * identity provider. The user picks Acme ID on the landing, a popup shows Acme ID's consent
 * page, the code comes back by postMessage, the page exchanges it (PKCE) for an id_token and
 * logs in with POST /custom_jwt_account/authenticate, which the server verifies against the
 * IdP's JWKS.
 *
 * The app bundle knows Acme ID as http://127.0.0.1:8791 (the plugin's default). So that this
 * spec never needs that port free on a shared machine, the IdP runs on a random port and the
 * browser's requests for 127.0.0.1:8791 are answered from it (Playwright routing: a real HTTP
 * round trip, the browser still sees the 8791 origin). The one change to the page's CSP is the
 * IdP's origin in connect-src, which any host using Acme ID must add for the token exchange.
 */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAcmeIdp } from '../../examples/custom-plugin/idp/server'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { chromiumArgs, ROOT, chromiumPath, startHarness, type Harness } from './harness'
import { fetchAgain } from './tgcap-shared'

const ACME_APP = 'portico-test-acmeid-00001'
const IDP_ORIGIN = 'http://127.0.0.1:8791' // what the browser and the id_tokens see

let h: Harness
let idp: Server
let browser: Browser
let idpUrl: string
const appOrigins: string[] = []
const step = (s: string) => process.env.E2E_DEBUG && console.log(`[acme-id e2e] ${s}`)

beforeAll(async () => {
  const { app } = await createAcmeIdp({ issuer: IDP_ORIGIN, clients: { 'portico-demo': { name: 'Portico Demo', origins: appOrigins } } })
  idp = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as unknown as Server)) as unknown as Server
  })
  idpUrl = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`
  // The reference server fetches the JWKS itself (no browser routing): point the Acme app's
  // key source at the IdP's real port by overriding the app of the same id.
  const apps = JSON.parse(readFileSync(join(ROOT, 'examples/server/apps.json'), 'utf8')).apps as { id: string; customAuth?: object }[]
  const acme = apps.find((a) => a.id === ACME_APP)
  if (!acme) throw new Error(`examples/server/apps.json has no app ${ACME_APP}`)
  h = await startHarness({ extraApps: [{ ...acme, customAuth: { ...acme.customAuth, jwksUrl: `${idpUrl}/.well-known/jwks.json` } }] })
  appOrigins.push(h.appUrl) // the app's origin is known now: register it at the IdP
  // Our own Chromium: a page whose response Playwright fulfilled (to extend its CSP) counts as
  // 'public' for Local Network Access, which would block its calls to the loopback API server.
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [...chromiumArgs(), '--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessSendPreflights,BlockInsecurePrivateNetworkRequests'],
  })
})

afterAll(async () => {
  await browser?.close()
  await h?.close()
  await new Promise((r) => (idp ? idp.close(r) : r(null)))
})

const errors = new WeakMap<Page, string[]>()

/**
 * A page of the demo app for the Acme app. Before anything loads, the context answers requests
 * for the IdP origin from the running IdP, and adds that origin to the app's connect-src.
 */
async function openAcmeApp(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' })
  await context.route(`${IDP_ORIGIN}/**`, async (route) => {
    const url = new URL(route.request().url())
    const response = await route.fetch({ url: `${idpUrl}${url.pathname}${url.search}`, maxRedirects: 0 })
    await route.fulfill({ response })
  })
  await context.route(`${h.appUrl}/**`, async (route) => {
    const response = await fetchAgain(route)
    const headers = response.headers()
    const csp = headers['content-security-policy']
    if (csp) headers['content-security-policy'] = csp.replace('connect-src', `connect-src ${IDP_ORIGIN}`)
    await route.fulfill({ response, headers })
  })
  const page = await context.newPage()
  const seen: string[] = []
  errors.set(page, seen)
  page.on('console', (m) => void (m.type() === 'error' && seen.push(m.text())))
  page.on('pageerror', (e) => seen.push(`pageerror: ${e.message}`))
  await page.goto(`${h.appUrl}/?${new URLSearchParams({ app: ACME_APP, api: h.apiUrl })}`)
  await page
    .waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged out', null, { timeout: 15_000 })
    .catch(async (e) => {
      const status = await page.textContent('[data-testid=status]').catch(() => null)
      throw new Error(`The demo app did not start for ${ACME_APP}: status ${JSON.stringify(status)}; page errors: ${seen.join(' | ')}`, { cause: e })
    })
  step('app ready')
  return page
}

async function choosePopup(page: Page): Promise<Page> {
  await h.openModal(page)
  step('modal open')
  const popupOpened = page.waitForEvent('popup')
  await page.click('[role=dialog] [data-method=acme-id]')
  const popup = await popupOpened
  step(`popup ${popup.url()}`)
  await popup.waitForURL(/:8791\/authorize\?/)
  await popup.waitForSelector('input[name=username]')
  return popup
}

describe('Acme ID (examples/custom-plugin) in the browser', () => {
  it('logs in through the Acme ID popup against the reference server', { timeout: 60_000 }, async () => {
    const page = await openAcmeApp()
    const popup = await choosePopup(page)
    const authorize = new URL(popup.url())
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256')
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(authorize.searchParams.get('redirect_uri')).toBe(h.appUrl)
    expect(authorize.searchParams.has('code_verifier')).toBe(false)
    await page.waitForSelector('[role=dialog][data-screen=acme-id-login]')
    await h.screenshot(popup, 'acme-id-consent')

    const tokenCall = page.waitForRequest((r) => r.url() === `${IDP_ORIGIN}/token`)
    await popup.fill('input[name=username]', 'alice')
    const closed = popup.waitForEvent('close', { timeout: 10_000 })
    await popup.click('button[value=allow]')
    await closed.catch(async (e) => {
      throw new Error(`The Acme ID popup did not hand back and close: ${popup.isClosed() ? '' : await popup.content()}`, { cause: e })
    })

    const exchange = await tokenCall
    const form = new URLSearchParams(exchange.postData() ?? '')
    expect(form.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{48}$/) // 36 random bytes
    expect(exchange.url()).not.toMatch(/code=|verifier/)

    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged in', null, { timeout: 15_000 })
    // The modal closes with success 1400 ms after the login; then the app reports the method.
    await page.waitForSelector('[data-testid=result]:has-text("complete: acme-id")', { timeout: 10_000 })
    expect(await page.$('[role=dialog]')).toBeNull()
    expect(await page.textContent('[data-testid=user]')).toContain('alice')
    await h.screenshot(page, 'acme-id-logged-in')
    expect(errors.get(page)).toEqual([])
  })

  it("shows 'User rejected request' when the user closes the popup, and can start again", { timeout: 60_000 }, async () => {
    const page = await openAcmeApp()
    const popup = await choosePopup(page)
    await popup.close()
    await page.waitForSelector('[role=dialog] >> text=User rejected request')
    await h.screenshot(page, 'acme-id-rejected')
    await page.click('[role=dialog] button:has-text("Try again")')
    const again = page.waitForEvent('popup')
    await page.click('[role=dialog] button:has-text("Continue with Acme ID")')
    const popup2 = await again
    await popup2.waitForSelector('input[name=username]')
    await popup2.click('button[value=deny]')
    await page.waitForSelector('[role=dialog] >> text=User rejected request')
    expect(await page.textContent('[data-testid=status]')).toBe('logged out')
  })
})
