/**
 * The browser half of `npm run bench`, on the e2e harness (production builds of examples/minimal
 * and examples/app under a strict CSP, the reference server in-process, Debian's Chromium):
 *  - modal open time measured IN THE PAGE (test/e2e/page-scripts.ts OPEN_TIMER): from a
 *    capture-phase click listener to the landing heading in the DOM (a MutationObserver), and
 *    to the next animation frame; BENCH_RUNS (20) first opens, each on a fresh page once it
 *    is ready and idle (a user clicks after the page settles; the modal's idle preload has run
 *    by then), and BENCH_RUNS warm opens (close with Escape, open again); median and p95;
 *  - API requests of one e-mail login, from page load to authenticated.
 *
 * Everything evaluated in the page is a string (page-scripts.ts), never a serialised function:
 * this file runs under tsx, whose keepNames helper (`__name`) does not exist in the page.
 */
import type { Page } from 'playwright-core'
import { startHarness, type ExampleName, type Harness } from '../e2e/harness'
import { NEXT_IDLE, until } from '../e2e/page-scripts'

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 20))

/** Target for the first open's median, click to landing heading in the DOM. */
export const FIRST_OPEN_TARGET_MS = 16

export function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b)
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]
  const r = (n: number) => Math.round(n * 10) / 10
  return { runs: s.length, median: r(at(0.5)), p95: r(at(0.95)), min: r(s[0]), max: r(s[s.length - 1]) }
}

/** Per example: how the page says it is logged in (an expression for waitForFunction). */
const LOGGED_IN: Record<ExampleName, string> = {
  app: `document.querySelector('[data-testid=status]')?.textContent === 'logged in'`,
  minimal: `!!document.querySelector('#root p')?.textContent?.startsWith('Logged in')`,
}

async function closeModal(page: Page) {
  await page.keyboard.press('Escape')
  await page.waitForSelector('[role=dialog]', { state: 'detached' })
}

async function openTimes(h: Harness) {
  const first = { dom: [] as number[], frame: [] as number[] }
  const warm = { dom: [] as number[], frame: [] as number[] }
  for (let i = 0; i < RUNS; i++) {
    const page = await h.openPage({})
    await page.evaluate(NEXT_IDLE)
    const t = await h.openModalTimed(page)
    first.dom.push(t.dom)
    first.frame.push(t.frame)
    await page.context().close()
  }
  const page = await h.openPage({})
  await h.openModalTimed(page)
  for (let i = 0; i < RUNS; i++) {
    await closeModal(page)
    const t = await h.openModalTimed(page)
    warm.dom.push(t.dom)
    warm.frame.push(t.frame)
  }
  // Script requests made by the opens (a lazily loaded landing would show here).
  const scripts = (await page.evaluate(
    `performance.getEntriesByType('resource').filter((e) => e.initiatorType === 'script' || e.name.endsWith('.js')).length`,
  )) as number
  await page.context().close()
  return {
    first: { dom: stats(first.dom), frame: stats(first.frame) },
    warm: { dom: stats(warm.dom), frame: stats(warm.frame) },
    scriptsAfterOpens: scripts,
  }
}

async function loginRequests(h: Harness, example: ExampleName) {
  const context = await h.newContext()
  const p = await context.newPage()
  const requests: string[] = []
  // Analytics events are fire-and-forget (no step waits for them; `analytics: false` turns
  // them off): counted apart from the requests a login needs.
  const analytics: string[] = []
  p.on('request', (r) => {
    const url = new URL(r.url())
    if (r.url().startsWith(h.apiUrl) && url.pathname.startsWith('/api/v1') && r.method() !== 'OPTIONS') {
      const path = url.pathname.replace('/api/v1', '')
      if (path === '/analytics_events') analytics.push(String((r.postDataJSON() as { eventName?: string } | null)?.eventName))
      else requests.push(`${r.method()} ${path}`)
    }
  })
  await p.goto(`${h.appUrl}/?api=${encodeURIComponent(h.apiUrl)}`)
  await h.waitReady(p)
  await h.enterEmailCode(p, `bench-${example}-${Date.now()}@example.com`)
  await p.evaluate(until(LOGGED_IN[example], 30_000, 'logged in'))
  await context.close()
  return { count: requests.length, requests, analytics }
}

const fmt = (s: ReturnType<typeof stats>) => `median ${s.median.toFixed(1)}, p95 ${s.p95.toFixed(1)}`

export async function benchBrowser(examples: ExampleName[] = ['minimal', 'app']) {
  const out: Record<string, unknown> = {}
  console.log(`\nModal open in Chromium, measured in the page (ms; n=${RUNS}; target: first open median ≤ ${FIRST_OPEN_TARGET_MS} ms)`)
  console.log('  click → landing heading in the DOM  [→ next frame]')
  for (const example of examples) {
    const h = await startHarness({ example })
    try {
      const open = await openTimes(h)
      const login = await loginRequests(h, example)
      const mark = open.first.dom.median <= FIRST_OPEN_TARGET_MS ? 'within target' : 'OVER target'
      console.log(`  examples/${example}`)
      console.log(`    first open: ${fmt(open.first.dom)}  [frame ${fmt(open.first.frame)}]  ${mark}`)
      console.log(`    warm open:  ${fmt(open.warm.dom)}  [frame ${fmt(open.warm.frame)}]`)
      console.log(`    API requests per e-mail login (page load to authenticated): ${login.count}: ${login.requests.join(', ')}`)
      console.log(`    analytics events (fire-and-forget, not counted): ${login.analytics.join(', ') || 'none'}`)
      out[example] = { modalOpenMs: open, loginRequests: login }
    } finally {
      await h.close()
    }
  }
  return out
}
