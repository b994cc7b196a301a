/**
 * Shared by telegram.spec.ts, captcha.spec.ts and hcaptcha.spec.ts: a Chromium of our own and pages of the demo
 * app whose requests to Telegram's and Cloudflare's script origins are answered by local
 * stand-ins (test/stand-ins), with those origins added to the page's script-src (what a host
 * using them must add). `allowScripts: false` keeps the harness's strict CSP, so the scripts
 * are blocked (the 'script unavailable' case).
 */
import type { APIResponse, BrowserContext, Page, Route } from 'playwright-core'
import { chromium, type Browser } from 'playwright-core'
import { chromiumArgs, chromiumPath, type Harness } from './harness'

export const TELEGRAM_ORIGIN = 'https://telegram.org'
export const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com'
export const HCAPTCHA_ORIGIN = 'https://js.hcaptcha.com'

export interface StandIns {
  /** The body of telegram-widget.js for the next request. */
  telegramScript: () => string
  /** The body of Turnstile's api.js. */
  turnstileScript: () => string
  /** The body of hCaptcha's api.js (pages of the demo with ?captcha=hcaptcha). */
  hcaptchaScript?: () => string
}

export async function ownBrowser(): Promise<Browser> {
  // A page whose response Playwright fulfilled (to extend its CSP) counts as 'public' for
  // Local Network Access, which would block its calls to the loopback API server.
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [...chromiumArgs(), '--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessSendPreflights,BlockInsecurePrivateNetworkRequests'],
  })
}

const pageErrors = new WeakMap<Page, string[]>()
export const errorsOf = (page: Page) => pageErrors.get(page) ?? []

export async function openStandInApp(
  h: Harness,
  browser: Browser,
  standIns: StandIns,
  query: Record<string, string>,
  opts: { allowScripts?: boolean } = {},
): Promise<{ page: Page; context: BrowserContext; scriptRequests: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' })
  const scriptRequests: string[] = []
  const js = { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' }
  await context.route(`${TELEGRAM_ORIGIN}/**`, async (route) => {
    scriptRequests.push(route.request().url())
    await route.fulfill({ status: 200, headers: js, body: standIns.telegramScript() })
  })
  await context.route(`${TURNSTILE_ORIGIN}/**`, async (route) => {
    scriptRequests.push(route.request().url())
    await route.fulfill({ status: 200, headers: js, body: standIns.turnstileScript() })
  })
  if (standIns.hcaptchaScript) {
    const body = standIns.hcaptchaScript
    await context.route(`${HCAPTCHA_ORIGIN}/**`, async (route) => {
      scriptRequests.push(route.request().url())
      await route.fulfill({ status: 200, headers: js, body: body() })
    })
  }
  if (opts.allowScripts !== false) {
    await context.route(`${h.appUrl}/**`, async (route) => {
      const response = await fetchAgain(route)
      const headers = response.headers()
      const csp = headers['content-security-policy']
      if (csp) headers['content-security-policy'] = `${csp}; script-src 'self' ${TELEGRAM_ORIGIN} ${TURNSTILE_ORIGIN} ${HCAPTCHA_ORIGIN}`
      await route.fulfill({ response, headers })
    })
  }
  const page = await context.newPage()
  const seen: string[] = []
  pageErrors.set(page, seen)
  page.on('console', (m) => void (m.type() === 'error' && seen.push(m.text())))
  page.on('pageerror', (e) => seen.push(`pageerror: ${e.message}`))
  await page.goto(`${h.appUrl}/?${new URLSearchParams({ ...query, api: h.apiUrl })}`)
  await page.waitForSelector('[data-testid=status]:text-is("logged out")', { timeout: 15_000 })
  return { page, context, scriptRequests }
}

export async function userRecord(page: Page): Promise<any> {
  return JSON.parse((await page.textContent('[data-testid=user]')) ?? 'null')
}

export async function waitResult(page: Page, text: string) {
  await page.waitForSelector(`[data-testid=result]:text-is("${text}")`, { timeout: 15_000 })
}

/** An e-mail-only test app with captcha on, checked by the siteverify stand-in at `verifyUrl`. */
export function captchaApp(id: string, opts: { name: string; provider: 'turnstile' | 'hcaptcha'; siteKey: string; secret: string; verifyUrl: string }) {
  return {
    id,
    name: opts.name,
    loginMethods: ['email'],
    allowedOrigins: [],
    captcha: { enabled: true, provider: opts.provider, siteKey: opts.siteKey, secret: opts.secret, verifyUrl: opts.verifyUrl },
  }
}

/** Click 'Log in': the captcha screen is inserted over the landing. */
export async function openWithCaptcha(page: Page) {
  await page.click('[data-testid=login]')
  await page.waitForSelector('[role=dialog][data-screen=captcha-challenge]', { timeout: 10_000 })
}

/** Type an address into the landing's e-mail field and submit it. */
export async function submitEmail(page: Page, address: string) {
  await page.waitForSelector('[role=dialog][data-screen=landing] input[type=email]', { timeout: 10_000 })
  await page.fill('[role=dialog] input[type=email]', address)
  await page.keyboard.press('Enter')
}

/**
 * `route.fetch()` for a GET of the app's static files, sent again when the connection resets:
 * Playwright reuses keep-alive sockets, and one the static server closed while idle (5 s) can
 * be picked before the close is seen on a busy machine — the page's load then hung (ECONNRESET).
 */
export async function fetchAgain(route: Route): Promise<APIResponse> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await route.fetch()
    } catch (e) {
      if (attempt >= 3 || !/ECONNRESET|socket hang up/.test(String(e))) throw e
    }
  }
}
