/**
 * The demo app's panels in browser tests: the approval screens' selectors and the result line
 * (`[data-testid=result]`) each panel writes its outcome to.
 */
import type { Page } from 'playwright-core'
import { expect } from 'vitest'

/** The open dialog showing `screen` (e.g. 'approvals-transaction'). */
export const dialog = (screen: string) => `[role=dialog][data-screen=${screen}]`
/** The action button labelled `name` on that screen. */
export const button = (screen: string, name: string) => `${dialog(screen)} .portico-actions button:has(.portico-button-label:text-is("${name}"))`

/** Waits for the result line to start with `prefix` (or an error), asserts the prefix and returns the rest. */
export async function result(page: Page, prefix: string, timeout = 60_000) {
  await page.waitForFunction(
    (p) => {
      const t = document.querySelector('[data-testid=result]')?.textContent ?? ''
      return t.startsWith(p) || t.startsWith('error')
    },
    prefix,
    { timeout },
  )
  const text = (await page.textContent('[data-testid=result]'))!
  expect(text).toMatch(new RegExp(`^${prefix}`))
  return text.slice(prefix.length).trim()
}

/** Empties the result line (before a request whose outcome the test waits for). */
export const clearResult = (page: Page) => page.evaluate(() => void (document.querySelector('[data-testid=result]')!.textContent = ''))
