/**
 * Telegram in Chromium against the reference server: the demo app's Telegram row loads
 * Telegram's login script (answered by the local stand-in, test/stand-ins/telegram.ts, whose
 * `Telegram.Login.auth` hands back data signed with the test bot token) and logs a new user
 * in; an e-mail user links, unlinks, and transfers a Telegram account from another user; a
 * blocked script turns off only Telegram; Mini App launch data in the address logs in.
 */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signWebApp, signWidget, widgetScript, TEST_BOT_ID, type TgUser } from '../stand-ins/telegram'
import { startHarness, type Harness } from './harness'
import { errorsOf, openStandInApp, ownBrowser, userRecord, waitResult, type StandIns } from './tgcap-shared'

const TG_APP = 'portico-test-telegram-001' // examples/server/apps.json (test bot token)

let h: Harness
let browser: Browser
let nextUser: TgUser | false = false
let uid = 8_000_000 + (Date.now() % 100_000) * 10
const newUser = (name = 'Ana'): TgUser => ({ id: ++uid, first_name: name, username: `${name.toLowerCase()}${uid}` })
const standIns: StandIns = {
  telegramScript: () => widgetScript(nextUser === false ? false : signWidget(nextUser)),
  turnstileScript: () => '',
}

beforeAll(async () => {
  h = await startHarness()
  browser = await ownBrowser()
})
afterAll(async () => {
  await browser?.close()
  await h?.close()
})

async function loginWithTelegram(u: TgUser) {
  nextUser = u
  const { page } = await openStandInApp(h, browser, standIns, { app: TG_APP })
  await h.openModal(page)
  await page.click('[role=dialog] [data-method=telegram]')
  await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 15_000 })
  await page.waitForSelector('[data-testid=status]:text-is("logged in")')
  return page
}

async function loginEmail(page: import('playwright-core').Page, address: string) {
  await h.openModal(page)
  const since = Date.now()
  await page.fill('[role=dialog] input[type=email]', address)
  await page.keyboard.press('Enter')
  await page.waitForSelector('[role=dialog][data-screen=email-code]')
  const code = await h.readOutboxCode(address, since)
  await page.locator('[role=dialog] input[aria-label="Digit 1 of 6"]').click()
  await page.keyboard.type(code)
  await page.waitForSelector('[role=dialog]', { state: 'detached' })
  await page.waitForSelector('[data-testid=status]:text-is("logged in")')
}

describe('Telegram in the browser', { timeout: 90_000 }, () => {
  it('logs a new user in through the login widget (bot id from the app settings)', async () => {
    const u = newUser()
    const page = await loginWithTelegram(u)
    await waitResult(page, 'complete: telegram (new user)')
    const user = await userRecord(page)
    expect(user.telegram).toMatchObject({ type: 'telegram', telegramUserId: String(u.id), firstName: 'Ana', username: u.username })
    expect(await page.evaluate(() => (window as any).__telegramLastBotId)).toBe(TEST_BOT_ID)
    expect(errorsOf(page)).toEqual([])
    await h.screenshot(page, 'telegram-logged-in')
  })

  it('links, unlinks and transfers a Telegram account for an e-mail user', async () => {
    // The other user: owns Telegram account `theirs`.
    const theirs = newUser('Bea')
    const other = await loginWithTelegram(theirs)
    const otherUser = await userRecord(other)

    nextUser = newUser('Cal')
    const { page } = await openStandInApp(h, browser, standIns, { app: TG_APP })
    await loginEmail(page, `tg-link-${Date.now()}@example.com`)
    const me = await userRecord(page)

    // Link: the status screen asks, the widget answers, the account is linked.
    await page.getByRole('button', { name: 'Link Telegram', exact: true }).click()
    await page.waitForSelector('[role=dialog][data-screen=telegram-status]')
    await page.getByRole('button', { name: 'Continue with Telegram', exact: true }).click()
    await waitResult(page, 'complete: link')
    const linked = await userRecord(page)
    expect(linked.id).toBe(me.id)
    expect(linked.telegram.telegramUserId).toBe(String((nextUser as TgUser).id))

    // Unlink.
    await page.getByRole('button', { name: 'Unlink Telegram', exact: true }).click()
    await page.locator('[data-demo-confirm]').getByRole('button', { name: 'Unlink', exact: true }).click() // the demo asks first
    await waitResult(page, 'complete: unlink telegram')
    expect((await userRecord(page)).telegram).toBeUndefined()

    // Transfer: link the other user's Telegram account → link conflict → transfer.
    nextUser = theirs
    await page.reload()
    await page.waitForSelector('[data-testid=status]:text-is("logged in")')
    await page.getByRole('button', { name: 'Link Telegram', exact: true }).click()
    await page.getByRole('button', { name: 'Continue with Telegram', exact: true }).click()
    await page.waitForSelector('[role=dialog][data-screen=account-link-conflict]', { timeout: 10_000 })
    expect(await page.textContent('[role=dialog] .portico-title')).toBe('Telegram profile is associated with another account')
    await h.screenshot(page, 'telegram-link-conflict')
    await page.getByRole('button', { name: 'Transfer and delete account', exact: true }).click()
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 10_000 })
    await waitResult(page, 'complete: link')
    const moved = await userRecord(page)
    expect(moved.id).toBe(me.id)
    expect(moved.telegram.telegramUserId).toBe(String(theirs.id))
    expect(moved.id).not.toBe(otherUser.id)
    // The one failed request is the link conflict's 400 (account_transfer_required).
    expect(errorsOf(page)).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)'])
  })

  it("a blocked script turns off only Telegram: 'Telegram was not initialized', e-mail still logs in", async () => {
    nextUser = newUser()
    const { page, scriptRequests } = await openStandInApp(h, browser, standIns, { app: TG_APP }, { allowScripts: false })
    await h.openModal(page)
    await page.click('[role=dialog] [data-method=telegram]')
    await page.waitForSelector('[role=dialog][data-screen=telegram-status] >> text=Telegram was not initialized')
    expect(await page.getByRole('button', { name: 'Retry', exact: true }).count()).toBe(1)
    expect(scriptRequests).toEqual([]) // refused by the CSP before any request
    expect(errorsOf(page).every((e) => /Content Security Policy|telegram/i.test(e))).toBe(true)
    await h.screenshot(page, 'telegram-not-initialized')
    await page.keyboard.press('Escape')
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    await loginEmail(page, `tg-blocked-${Date.now()}@example.com`)
  })

  it('Mini App launch data (#tgWebAppData) logs in at start-up and leaves the address', async () => {
    const u = newUser('Dee')
    const data = signWebApp(u)
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${h.appUrl}/?${new URLSearchParams({ app: TG_APP, api: h.apiUrl })}#tgWebAppData=${encodeURIComponent(data)}&tgWebAppVersion=7.0`)
    await page.waitForSelector('[data-testid=status]:text-is("logged in")', { timeout: 15_000 })
    expect(page.url()).not.toContain('tgWebAppData')
    expect((await userRecord(page)).telegram.telegramUserId).toBe(String(u.id))
  })
})
