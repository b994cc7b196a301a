/** Funding driven from the test: `fund(request)` started in the page, its result read back. */
import type { Page } from 'playwright-core'
import { until } from './page-scripts'

/** Start `fund(request)` in the page; the result lands in window.__fund. */
export async function fund(page: Page, request: Record<string, unknown>) {
  await page.evaluate((r) => {
    const w = window as unknown as { portico: { plugin(id: string): { fund(r: unknown): Promise<unknown> } }; __fund?: unknown }
    w.__fund = undefined
    w.portico
      .plugin('funding')
      .fund(r)
      .then(
        (x) => (w.__fund = x),
        (e: { code?: string }) => (w.__fund = { error: e.code }),
      )
  }, request)
}

/** The result of the last `fund` once it settled: what it resolved with, or `{ error: code }`. */
export async function fundResult(page: Page) {
  await page.evaluate(until('window.__fund !== undefined'))
  return page.evaluate(() => (window as unknown as { __fund: unknown }).__fund)
}
