/**
 * Small items of issue 25, in Chromium under the harness's strict CSP:
 * - the demo app's default landing reaches every login method the README lists: passkeys and
 *   the social providers behind 'More options', each with a drawn logo (an SVG, no letter
 *   placeholder), and focus moves into that view;
 * - the authenticator-app enrolment shows the whole secret (it was cut off), selectable and
 *   copyable;
 * - the demo's Unlink buttons ask 'Unlink … ?' first (Unlink / Cancel).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startHarness, type Harness } from './harness'

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(async () => {
  await h?.close()
})

const SOCIAL = ['google', 'apple', 'github', 'discord', 'twitter', 'linkedin', 'spotify', 'tiktok', 'instagram']

async function waitStatus(page: Page, want: string) {
  await page.waitForFunction((w) => document.querySelector('[data-testid=status]')?.textContent === w, want)
}

describe('demo app: every login method from the default modal', () => {
  it("'More options' lists passkeys and every social login, each with its drawn logo", async () => {
    const page = await h.openPage({})
    await h.openModal(page)
    // The default landing: e-mail, SMS and wallet, then 'More options'.
    const rows = await page.locator('.portico-landing .portico-list-button').evaluateAll((els) => els.map((e) => e.getAttribute('data-method')))
    expect(rows).toEqual(['sms', 'wallet', 'more-options'])
    await page.click('[data-method=more-options]')
    await page.waitForSelector('.portico-landing[data-view=overflow]')
    // Focus moves into the new view (it dropped to the page's body).
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-method') === 'passkey')
    const overflow = await page.locator('[data-portico-overflow] [data-method]').evaluateAll((els) => els.map((e) => e.getAttribute('data-method')))
    expect(overflow).toEqual(['passkey', ...SOCIAL, 'guest'])
    for (const id of SOCIAL) {
      const icon = page.locator(`[data-portico-overflow] [data-method=${id}] .portico-list-icon svg`)
      expect(await icon.count(), id).toBe(1)
      // A drawing: shapes, no text glyph (the letter placeholders were <text>), no style attribute.
      expect(await icon.evaluate((svg) => ({ text: svg.querySelectorAll('text').length, shapes: svg.querySelectorAll('path, rect, circle, ellipse').length, style: svg.querySelectorAll('[style]').length }))).toMatchObject({
        text: 0,
        style: 0,
      })
      expect(await icon.evaluate((svg) => svg.querySelectorAll('path, rect, circle, ellipse').length)).toBeGreaterThan(0)
      // Drawn at its size, visible.
      const box = await icon.boundingBox()
      expect(Math.round(box!.width)).toBe(20)
    }
    await h.screenshot(page, 'demo-overflow-top')
    await page.locator('[data-portico-overflow] [data-method=guest]').scrollIntoViewIfNeeded()
    await h.screenshot(page, 'demo-overflow-bottom')
    // Dark theme: the monochrome logos follow the text colour.
    const dark = await h.openPage({ theme: 'dark' })
    await h.openModal(dark)
    await dark.click('[data-method=more-options]')
    await dark.waitForSelector('.portico-landing[data-view=overflow]')
    await h.screenshot(dark, 'demo-overflow-dark')
    expect(h.consoleErrors(page).filter((e) => /Content Security Policy/i.test(e))).toEqual([])
    expect(h.consoleErrors(dark).filter((e) => /Content Security Policy/i.test(e))).toEqual([])
  })
})

describe('authenticator app enrolment', () => {
  it('shows the whole secret, wrapped, selectable and copyable', async () => {
    const page = await h.openPage({ app: 'portico-test-mfa-00000001' }, { viewport: { width: 390, height: 844 } })
    await h.enterEmailCode(page, `totp-secret-${process.pid}@example.com`)
    await waitStatus(page, 'logged in')
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    await page.getByRole('button', { name: 'MFA', exact: true }).click()
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.click('[data-mfa-method=totp] button')
    await page.waitForSelector('[data-mfa-totp-enrol] svg.portico-qr-code')
    const field = page.locator('[data-mfa-totp-secret]')
    const secret = await field.inputValue()
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    // Nothing hidden: no horizontal or vertical overflow, and it sits inside the dialog.
    const m = await field.evaluate((el) => ({ sw: el.scrollWidth, cw: el.clientWidth, sh: el.scrollHeight, ch: el.clientHeight, lines: Math.round(el.scrollHeight / parseFloat(getComputedStyle(el).lineHeight)) }))
    expect(m.sw).toBeLessThanOrEqual(m.cw)
    expect(m.sh).toBeLessThanOrEqual(m.ch)
    const box = (await field.boundingBox())!
    const dialog = (await page.locator('[role=dialog]').boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(dialog.x)
    expect(box.x + box.width).toBeLessThanOrEqual(dialog.x + dialog.width)
    // Selectable as a whole (focus selects it) and labelled.
    await field.focus()
    expect(await page.evaluate(() => String(window.getSelection()) || (document.activeElement as HTMLTextAreaElement).value.slice((document.activeElement as HTMLTextAreaElement).selectionStart, (document.activeElement as HTMLTextAreaElement).selectionEnd))).toBe(secret)
    expect(await page.getByLabel('Secret').count()).toBe(1)
    await page.getByRole('button', { name: 'Copy' }).waitFor()
    await h.screenshot(page, 'demo-totp-secret')
  })
})

describe("the demo's unlink buttons", () => {
  it("ask 'Unlink … ?' first: Cancel sends nothing, Unlink sends the request", async () => {
    const page = await h.openPage({})
    const email = `unlink-ask-${process.pid}@example.com`
    await h.enterEmailCode(page, email)
    await waitStatus(page, 'logged in')
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    const before = await page.textContent('[data-testid=result]')
    const unlinks: string[] = []
    page.on('request', (r) => r.url().includes('/passwordless/unlink') && unlinks.push(r.url()))
    await page.getByRole('button', { name: 'Unlink email', exact: true }).click()
    const question = page.locator('[data-demo-confirm]')
    await question.waitFor()
    expect(await question.locator('span').first().textContent()).toBe(`Unlink ${email}?`)
    await page.waitForFunction(() => document.activeElement?.textContent === 'Unlink')
    await h.screenshot(page, 'demo-unlink-confirm')
    await question.getByRole('button', { name: 'Cancel', exact: true }).click()
    await question.waitFor({ state: 'detached' })
    await page.waitForFunction(() => document.activeElement?.textContent === 'Unlink email')
    expect(unlinks).toEqual([])
    expect(await page.textContent('[data-testid=result]')).toBe(before)
    // Confirmed: the request goes (the server keeps a user's last account and refuses it).
    await page.getByRole('button', { name: 'Unlink email', exact: true }).click()
    await question.getByRole('button', { name: 'Unlink', exact: true }).click()
    await page.waitForFunction((b) => document.querySelector('[data-testid=result]')?.textContent !== b, before)
    expect(unlinks).toHaveLength(1)
  })
})
