/**
 * The browser half of `npm run bench`, on the e2e harness (production build of examples/app
 * under a strict CSP, the reference server in-process, Debian's Chromium):
 *  - click on 'Log in' to a visible landing: 20 first opens (fresh page each) and 20 warm
 *    opens (close with Escape, open again), median and p95;
 *  - API requests of one e-mail login, from page load to authenticated.
 */
import { startHarness } from '../e2e/harness'

const RUNS = Number(process.env.BENCH_RUNS ?? 20)

export function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b)
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]
  return { runs: s.length, median: at(0.5), p95: at(0.95), min: s[0], max: s[s.length - 1] }
}

export async function benchBrowser() {
  const h = await startHarness()
  try {
    const first: number[] = []
    const warm: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const page = await h.openPage({})
      first.push(await h.openModal(page))
      await page.keyboard.press('Escape')
      await page.waitForSelector('[role=dialog]', { state: 'detached' })
      await page.context().close()
    }
    const page = await h.openPage({})
    await h.openModal(page)
    for (let i = 0; i < RUNS; i++) {
      await page.keyboard.press('Escape')
      await page.waitForSelector('[role=dialog]', { state: 'detached' })
      warm.push(await h.openModal(page))
    }
    await page.context().close()
    const open = { first: stats(first), warm: stats(warm) }
    console.log('\nModal open time in Chromium (click to visible landing, ms)')
    console.log(`  first open: median ${open.first.median}, p95 ${open.first.p95} (n=${open.first.runs})`)
    console.log(`  warm open:  median ${open.warm.median}, p95 ${open.warm.p95} (n=${open.warm.runs})`)

    // Requests per e-mail login.
    const context = await h.browser.newContext({ viewport: { width: 1280, height: 800 } })
    const p = await context.newPage()
    const requests: string[] = []
    p.on('request', (r) => {
      const url = new URL(r.url())
      if (r.url().startsWith(h.apiUrl) && url.pathname.startsWith('/api/v1') && r.method() !== 'OPTIONS') {
        requests.push(`${r.method()} ${url.pathname.replace('/api/v1', '')}`)
      }
    })
    await p.goto(`${h.appUrl}/?api=${encodeURIComponent(h.apiUrl)}`)
    await p.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged out')
    await p.click('[data-testid=login]')
    await p.waitForSelector('[role=dialog][data-screen=landing]')
    const email = `bench-${Date.now()}@example.com`
    const since = Date.now()
    await p.fill('input[type=email]', email)
    await p.press('input[type=email]', 'Enter')
    await p.waitForSelector('.portico-code-box')
    const code = await h.readOutboxCode(email, since)
    await p.click('.portico-code-box >> nth=0')
    await p.keyboard.type(code)
    await p.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged in')
    await context.close()
    console.log(`\nAPI requests per e-mail login (page load to authenticated): ${requests.length}`)
    console.log(`  ${requests.join(', ')}`)
    return { modalOpenMs: open, loginRequests: { count: requests.length, requests } }
  } finally {
    await h.close()
  }
}
