/**
 * Cross-app login in Chromium against the reference server, with the two apps on two origins:
 * the requester at http://127.0.0.1:<port>, the provider's /oauth/transact page at
 * http://localhost:<port> (the same build, another origin). A provider user logs in there
 * first; the requester's modal opens the provider page in a popup, the user consents, the
 * requester logs a new user in; then an e-mail user links and unlinks; a closed popup is
 * 'User rejected request'.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { clickThenClosed, startHarness, type Harness } from './harness'

const PROVIDER = 'portico-e2e-xprovider-001'
const REQUESTER = 'portico-e2e-xrequest-0001'
let h: Harness

beforeAll(async () => {
  h = await startHarness({
    extraApps: (origin) => {
      const provider = origin.replace('127.0.0.1', 'localhost')
      const base = { logoUrl: null, theme: 'light', allowedOrigins: [], embeddedWallets: { createOnLogin: 'off' } }
      return [
        { ...base, id: PROVIDER, name: 'Provider App', loginMethods: ['email'], crossApp: { allowedRequesters: [REQUESTER] } },
        {
          ...base,
          id: REQUESTER,
          name: 'Requester App',
          loginMethods: ['cross_app', 'email'],
          crossApp: { connections: [{ providerAppId: PROVIDER, transactUrl: `${provider}/oauth/transact?app=${PROVIDER}&provider=Provider+App&api=API` }] },
        },
      ]
    },
  })
}, 240_000)
afterAll(async () => {
  await h?.close()
})

const userRecord = async (page: Page) => JSON.parse((await page.textContent('[data-testid=user]'))!) as Record<string, any>
const waitStatus = (page: Page, text: string) =>
  page.waitForFunction((t) => document.querySelector('[data-testid=status]')?.textContent === t, text)
const waitResult = (page: Page, text: string) =>
  page.waitForFunction((t) => document.querySelector('[data-testid=result]')?.textContent === t, text)

async function loginEmail(page: Page, address: string) {
  await h.openModal(page)
  const since = Date.now()
  await page.fill('[role=dialog] input[type=email]', address)
  await page.keyboard.press('Enter')
  await page.waitForSelector('[role=dialog][data-screen=email-code]')
  const code = await h.readOutboxCode(address, since)
  await page.locator('[role=dialog] input[aria-label="Digit 1 of 6"]').click()
  await page.keyboard.type(code)
  await page.waitForSelector('[role=dialog]', { state: 'detached' })
  await waitStatus(page, 'logged in')
}

/** A provider-app user logged in on the provider's origin, in the requester page's browser context. */
async function providerLogin(requester: Page, address: string) {
  const page = await requester.context().newPage()
  const origin = h.appUrl.replace('127.0.0.1', 'localhost')
  await page.goto(`${origin}/?app=${PROVIDER}&api=${encodeURIComponent(h.apiUrl)}`)
  await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged out')
  await loginEmail(page, address)
  const user = await userRecord(page)
  await page.close()
  return user
}

/** Click `trigger`, then consent in the popup. */
async function consentInPopup(page: Page, trigger: () => Promise<void>) {
  const popupP = page.context().waitForEvent('page')
  await trigger()
  const popup = await popupP
  await popup.waitForSelector('[data-testid=cross-app-transact] button:has-text("Continue")')
  expect(new URL(popup.url()).origin).toBe(h.appUrl.replace('127.0.0.1', 'localhost'))
  expect(await popup.textContent('.portico-title')).toBe('Log in to Requester App')
  await h.screenshot(popup, 'cross-app-consent')
  await clickThenClosed(popup, popup.getByRole('button', { name: 'Continue', exact: true }))
}

// The requester's connection names the API URL only once the harness runs: patch it into the page's kernel.
async function openRequester() {
  const page = await h.openPage({ app: REQUESTER })
  await page.evaluate((api) => {
    const xa = (window as any).portico.plugin('cross-app')
    return xa.loadConnections(true).then((list: { transact_url: string }[]) => {
      for (const c of list) c.transact_url = c.transact_url.replace('api=API', `api=${encodeURIComponent(api)}`)
    })
  }, h.apiUrl)
  return page
}

describe('cross-app', { timeout: 90_000 }, () => {
  it('logs a new user in with the provider app account (two origins); not remembered', async () => {
    const page = await openRequester()
    const provUser = await providerLogin(page, `prov-${Date.now()}@example.com`)
    await h.openModal(page)
    const row = page.locator('[role=dialog] [data-method=cross_app]')
    expect(await row.textContent()).toContain('Provider App')
    await consentInPopup(page, () => row.click())
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 15_000 })
    await waitStatus(page, 'logged in')
    await waitResult(page, 'complete: cross_app (new user)')
    const user = await userRecord(page)
    expect(user.linkedAccounts).toEqual([expect.objectContaining({ type: 'cross_app', subject: provUser.id, providerApp: { id: PROVIDER }, embeddedWallets: [] })])
    expect(await page.evaluate((id) => localStorage.getItem(`portico:${id}:recent-login-method`), REQUESTER)).not.toBe('cross_app')
    expect(h.consoleErrors(page)).toEqual([])
  })

  it("a closed popup: 'User rejected request'", async () => {
    const page = await openRequester()
    await h.openModal(page)
    const popupP = page.context().waitForEvent('page')
    await page.locator('[role=dialog] [data-method=cross_app]').click()
    const popup = await popupP
    await page.waitForSelector('[role=dialog] .portico-title:has-text("Connecting to Provider App")')
    await popup.close()
    await page.waitForSelector('[role=dialog] :text("User rejected request")')
  })

  it('links to an e-mail user of the requester, then unlinks through the method descriptor', async () => {
    const page = await openRequester()
    await loginEmail(page, `req-${Date.now()}@example.com`)
    const provUser = await providerLogin(page, `prov2-${Date.now()}@example.com`)
    await page.getByRole('button', { name: 'Link cross-app', exact: true }).click()
    await page.waitForSelector('[role=dialog][data-screen=cross-app-connect]')
    await consentInPopup(page, () => page.locator('[role=dialog] button:has-text("Continue")').click())
    await waitResult(page, 'complete: link')
    const linked = await userRecord(page)
    expect(linked.linkedAccounts.map((a: { type: string }) => a.type).sort()).toEqual(['cross_app', 'email'])
    expect(linked.linkedAccounts.find((a: { type: string }) => a.type === 'cross_app').subject).toBe(provUser.id)
    const after = await page.evaluate(async () => {
      const k = (window as any).portico
      const acct = k.session.user.linkedAccounts.find((a: { type: string }) => a.type === 'cross_app')
      const res = await k.methods.get('cross_app').unlink(k.api, acct)
      return res.user.linked_accounts.map((a: { type: string }) => a.type)
    })
    expect(after).toEqual(['email'])
  })
})
