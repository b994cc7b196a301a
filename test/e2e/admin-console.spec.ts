/**
 * The operators' console at /admin (issue 32) in Chromium, under its strict CSP: an owner signs
 * in through the Portico modal (e-mail code from the dev outbox); adds an allowed origin and a
 * login method to an app, and the demo (a second page of the demo host app on the same server)
 * starts on that origin and its modal offers SMS, without a restart; finds a user by e-mail and
 * by wallet address, revokes their sessions (their next request is 401), exports users, deletes
 * a user (their next login is a new user); adds a webhook and a login's delivery reaches a
 * receiver here, verified with portico/server's verifyWebhook; a viewer sees changes disabled
 * and the API refuses them. Screenshots of each page, light and dark, and at 390 px. One server
 * for the file, few page loads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { verifyWebhook } from '../../server/index'
import { startHarness, type Harness } from './harness'
import { until as waitUntil, webhookReceiver } from '../../examples/server/test/helpers'

const OWNER = 'owner@console-e2e.example.com'
const ENV_KEY = 'portico_admin_console-e2e-bootstrap-key-0000000000'
const APP = 'portico-test-console-0001'
const CONSOLE_APP = 'portico-console-app-00001'

let h: Harness
const rx = webhookReceiver()
const got = rx.got
let rxUrl = ''
let worker: { stop(): Promise<void> } | null = null

const adminApi = async (path: string, cred: string, o: { method?: string; body?: unknown } = {}) => {
  const res = await fetch(`${h.apiUrl}/admin/v1${path}`, {
    method: o.method ?? (o.body === undefined ? 'GET' : 'POST'),
    headers: { authorization: `Bearer ${cred}`, ...(o.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
  })
  return { status: res.status, body: (await res.json().catch(() => null)) as any }
}

const until = <T>(check: () => T | Promise<T>, ms = 15_000) => waitUntil(check, ms, 50)

/** Opens the console (its own CSP, not bypassed) and signs in through the modal. */
async function signIn(email: string, o: { viewport?: { width: number; height: number }; dark?: boolean; shot?: string; axe?: boolean } = {}): Promise<Page> {
  // `axe`: the page's CSP is bypassed so axe-core can be injected (the other tests keep it and check it).
  const context = await h.browser.newContext({ viewport: o.viewport ?? { width: 1200, height: 900 }, reducedMotion: 'reduce', colorScheme: o.dark ? 'dark' : 'light', bypassCSP: !!o.axe })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => m.type() === 'error' && /Content Security Policy|Refused/.test(m.text()) && errors.push(m.text()))
  ;(page as any).__errors = errors
  await page.goto(`${h.apiUrl}/admin`)
  if (o.shot) await h.screenshot(page, `${o.shot}-page`)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForSelector('[role=dialog] input[type=email]')
  if (o.shot) {
    await h.waitForDialogSettled(page)
    await h.screenshot(page, `${o.shot}-modal`)
  }
  const since = Date.now()
  await page.fill('input[type=email]', email)
  await page.press('input[type=email]', 'Enter')
  await page.waitForSelector('[role=dialog][data-screen=email-code] .portico-code-box')
  const code = await h.readOutboxCode(email, since)
  await page.click('.portico-code-box >> nth=0')
  await page.keyboard.type(code, { delay: 20 })
  await page.waitForSelector('[data-testid=whoami]')
  await page.waitForSelector('[role=dialog]', { state: 'detached' })
  return page
}

beforeAll(async () => {
  rxUrl = await rx.listen()
  h = await startHarness({
    limits: { resendCooldownS: 0 },
    extraApps: [{ id: APP, name: 'Console test app', loginMethods: ['email'], allowedOrigins: [] }],
    server: { appsInDatabase: true, admin: { ownerEmail: OWNER, apiKey: ENV_KEY, consoleOrigins: [] } },
  })
  // The console app allows the server's own origin (main.ts does this with the URL it listens on).
  const patched = await adminApi(`/apps/${CONSOLE_APP}`, ENV_KEY, { method: "PATCH", body: { allowedOrigins: [h.apiUrl] } })
  expect(patched.status, JSON.stringify(patched.body)).toBe(200)
  // The webhook worker, as main.ts runs it beside the server (development mode: a loopback receiver is allowed).
  const { startWebhookWorker } = await import('../../examples/server/src/features/webhooks/worker')
  const { devKeys } = await import('../../examples/server/test/helpers')
  const { pino } = await import('pino')
  worker = startWebhookWorker({ store: h.store, keys: devKeys, log: pino({ level: 'silent' }), pollMs: 250, wakeDelayMs: 5, timeoutMs: 2000, allowPrivateNetworks: true })
}, 120_000)
afterAll(async () => {
  await worker?.stop()
  await h?.close()
  await rx.close()
})


describe('the console', { timeout: 120_000 }, () => {
  it('owner: an origin and a login method the demo shows at once, users, webhooks; screenshots', async () => {
    const page = await signIn(OWNER, { shot: 'console-signin-light' })
    expect(await page.textContent('[data-testid=whoami]')).toContain('(owner)')
    await h.screenshot(page, 'console-apps-light')

    // Apps: add SMS to the app; its validation error shows beside the field first.
    await page.getByRole('button', { name: /Console test app/ }).click()
    const origins = await page.inputValue('#app-origins')
    await page.fill('#app-origins', 'not an origin')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.waitForSelector('#app-origins-error')
    await h.screenshot(page, 'console-app-editor-error')
    // Without the demo's http://localhost origin first: the demo there cannot start.
    const local = origins.split('\n').find((o) => o.startsWith('http://localhost:'))!
    const others = origins.split('\n').filter((o) => o !== local)
    await page.fill('#app-origins', [...others, 'https://shop.example.com'].join('\n'))
    await page.fill('#app-accent', '#0a7d5a')
    await page.check('input[name=loginMethods][value=sms]')
    // The live preview is the real portico/ui modal with the unsaved settings: SMS is there already.
    await page.click('[data-testid=console-live-preview]:not([disabled])')
    await page.waitForSelector('[role=dialog] [data-method=sms]')
    await page.waitForSelector('[role=dialog] [data-method=email]')
    await h.screenshot(page, 'console-live-preview')
    await page.keyboard.press('Escape')
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Saved.').waitFor()
    expect((await adminApi(`/apps/${APP}`, ENV_KEY)).body.settings).toMatchObject({ loginMethods: ['email', 'sms'], accentColor: '#0a7d5a', allowedOrigins: [...others, 'https://shop.example.com'] })
    const refused = await h.openPage({ app: APP }, { host: 'localhost' })
    expect(await refused.textContent('[data-testid=status]')).not.toBe('logged out')
    await refused.context().close()
    // The origin added in the console: the demo there starts and its modal offers SMS, no restart.
    await page.fill('#app-origins', [...others, 'https://shop.example.com', local].join('\n'))
    await page.getByRole('button', { name: 'Save' }).click()
    await until(async () => ((await adminApi(`/apps/${APP}`, ENV_KEY)).body.settings.allowedOrigins as string[]).includes(local))
    await h.screenshot(page, 'console-app-editor')
    // Rotating the app secret (confirmed): the new one is shown once, and it is the one that works.
    page.once('dialog', (d) => void d.accept())
    await page.getByRole('button', { name: 'Rotate app secret' }).click()
    const appSecret = (await page.locator('[data-testid=secret]').textContent())!
    const withSecret = (secret: string) =>
      fetch(`${h.apiUrl}/api/v1/users/did:portico:nobody`, { headers: { authorization: `Basic ${Buffer.from(`${APP}:${secret}`).toString('base64')}`, 'privy-app-id': APP } }).then((r) => r.status)
    expect(await withSecret(appSecret)).toBe(404)
    expect(await withSecret(`${appSecret}x`)).toBe(401)
    const demo = await h.openPage({ app: APP }, { host: 'localhost' })
    expect(await demo.textContent('[data-testid=status]')).toBe('logged out')
    await h.openModal(demo)
    expect(await demo.locator('[role=dialog] [data-method=sms]').count()).toBe(1)
    await demo.context().close()

    // Users: two users of the app, one with a wallet address to find.
    const ana = `ana-${Date.now()}@example.com`
    const anaLogin = await h.loginViaApi(APP, ana)
    expect(anaLogin.status).toBe(200)
    await page.getByRole('button', { name: 'Users' }).click()
    await page.selectOption('#app-pick', APP)
    await page.fill('#user-q', ana)
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByRole('list', { name: 'Users found' }).getByRole('button').first().click()
    await page.getByText(`email: ${ana}`).waitFor()
    await page.getByText('1 active session(s)').waitFor()
    // By wallet address: a user imported with one.
    const wallet = `0x${Date.now().toString(16).padStart(40, 'c')}`
    const imported = await adminApi(`/apps/${APP}/users/import`, ENV_KEY, { body: { idempotency_key: wallet, users: [{ linked_accounts: [{ type: 'wallet', address: wallet }] }] } })
    expect(imported.status).toBe(202)
    await page.fill('#user-q', wallet)
    await until(async () => {
      await page.getByRole('button', { name: 'Search' }).click()
      return (await page.getByRole('list', { name: 'Users found' }).getByRole('button').count()) === 1
    })
    await page.getByRole('list', { name: 'Users found' }).getByRole('button').first().click()
    await page.getByText(/wallet: 0x/i).waitFor()
    await h.screenshot(page, 'console-users')
    await page.fill('#user-q', ana)
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByRole('list', { name: 'Users found' }).getByRole('button', { name: new RegExp(ana) }).click()
    await page.getByText(`email: ${ana}`).waitFor()
    await page.getByRole('button', { name: 'Revoke sessions' }).click()
    await page.getByText('Every session of this user has ended.').waitFor()
    const me = await fetch(`${h.apiUrl}/api/v1/users/me`, { headers: { authorization: `Bearer ${anaLogin.body.token}`, 'privy-app-id': APP } })
    expect(me.status).toBe(401)
    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Export JSON Lines' }).click()
    const d = await download
    expect(d.suggestedFilename()).toBe(`users-${APP}.jsonl`)
    let text = ''
    for await (const chunk of await d.createReadStream()) text += chunk
    expect(text).toContain(ana)
    expect(text.toLowerCase()).toContain(wallet)
    page.once('dialog', (d) => void d.accept())
    await page.getByRole('button', { name: 'Delete user' }).click()
    await page.getByText('User deleted.').waitFor()
    const again = await h.loginViaApi(APP, ana)
    expect(again.body.user.id).not.toBe(anaLogin.body.user.id)

    // Webhooks: an endpoint; a login's delivery arrives signed.
    await page.getByRole('button', { name: 'Webhooks' }).click()
    await page.fill('#wh-url', `${rxUrl}/hook`)
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    const secret = (await page.locator('[data-testid=secret]').textContent())!
    expect(secret).toMatch(/^whsec_/)
    const bob = `bob-${Date.now()}@example.com`
    expect((await h.loginViaApi(APP, bob)).status).toBe(200)
    const delivered = await until(() => got.find((g) => verifyWebhook(g.body, g.headers, secret).type === 'user.created'))
    expect(verifyWebhook(delivered.body, delivered.headers, secret).data).toMatchObject({ linked_accounts: [{ type: 'email', address: bob }] })
    await until(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click()
      return (await page.locator('table[aria-label=Deliveries] td', { hasText: 'delivered' }).count()) > 0
    })
    await h.screenshot(page, 'console-webhooks')
    // Replay from the console: the same message arrives again (same webhook-id).
    const before = got.length
    await page.locator('table[aria-label=Deliveries] tr', { hasText: 'user.created' }).getByRole('button', { name: 'Replay' }).click()
    const replayed = await until(() => got.slice(before).find((g) => g.headers['webhook-id'] === delivered.headers['webhook-id']))
    expect(verifyWebhook(replayed.body, replayed.headers, secret).type).toBe('user.created')
    await page.getByRole('button', { name: 'Stats' }).click()
    await page.locator('figure.c-chart svg').first().waitFor()
    await h.screenshot(page, 'console-stats')
    expect((page as any).__errors).toEqual([])
    await page.context().close()
  })

  it('dark and 390 px: the console follows the system and the toggle; axe-core finds no serious or critical violation on its pages', async () => {
    const page = await signIn(OWNER, { dark: true, shot: 'console-signin-dark', axe: true })
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark')
    const axe = async (where: string) => expect(await h.axe(page, 'body'), where).toEqual([])
    await axe('first page, dark')
    await page.getByRole('button', { name: /Console test app/ }).click()
    await h.screenshot(page, 'console-apps-dark')
    await axe('app editor, dark')
    await page.getByRole('button', { name: 'Stats' }).click()
    await page.locator('figure.c-chart svg').first().waitFor()
    await h.screenshot(page, 'console-stats-dark')
    await axe('stats, dark')
    await page.getByRole('button', { name: 'Switch to the light theme' }).click()
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light')
    await page.setViewportSize({ width: 390, height: 844 })
    await page.getByRole('button', { name: 'Webhooks' }).click()
    await page.getByRole('checkbox', { name: 'user.created' }).waitFor()
    await h.screenshot(page, 'console-webhooks-390')
    await axe('webhooks, light, 390 px')
    await page.getByRole('button', { name: 'Users' }).click()
    await axe('users, light, 390 px')
    await page.getByRole('button', { name: 'Apps' }).click()
    await page.getByRole('button', { name: /Console test app/ }).click()
    await h.screenshot(page, 'console-apps-390')
    await axe('app editor, light, 390 px')
    await page.context().close()
  })

  it('a viewer: changes disabled in the console and refused by the API', async () => {
    const viewer = `viewer-${Date.now()}@example.com`
    // Operators are the owner's to add (an API key cannot).
    expect((await adminApi('/operators', ENV_KEY, { body: { email: viewer, role: 'viewer' } })).status).toBe(403)
    const owner = await h.loginViaApi(CONSOLE_APP, OWNER)
    expect(owner.status, JSON.stringify(owner.body)).toBe(200)
    expect((await adminApi('/operators', owner.body.token, { body: { email: viewer, role: 'viewer' } })).status).toBe(200)

    const page = await signIn(viewer, { viewport: { width: 390, height: 844 }, shot: 'console-signin-390' })
    expect(await page.textContent('[data-testid=whoami]')).toContain('(viewer)')
    await page.getByRole('button', { name: /Console test app/ }).click()
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true)
    expect(await page.getByRole('button', { name: 'Rotate app secret' }).isDisabled()).toBe(true)
    await h.screenshot(page, 'console-viewer-apps')
    await page.getByRole('button', { name: 'Users' }).click()
    await page.selectOption('#app-pick', APP)
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByRole('list', { name: 'Users found' }).getByRole('button').first().click()
    expect(await page.getByRole('button', { name: 'Revoke sessions' }).isDisabled()).toBe(true)
    expect(await page.getByRole('button', { name: 'Delete user' }).isDisabled()).toBe(true)
    await page.getByRole('button', { name: 'Webhooks' }).click()
    expect(await page.getByRole('button', { name: 'Add endpoint' }).isDisabled()).toBe(true)
    await page.locator('table[aria-label=Deliveries] tbody tr').first().waitFor()
    expect(await page.getByRole('button', { name: 'Replay' }).first().isDisabled()).toBe(true)
    expect((page as any).__errors).toEqual([])
    await page.context().close()

    // The API refuses the same changes with the viewer's own token.
    const token = (await h.loginViaApi(CONSOLE_APP, viewer)).body.token
    const refused = await Promise.all([
      adminApi(`/apps/${APP}`, token, { method: 'PATCH', body: { name: 'by a viewer' } }),
      adminApi(`/apps/${APP}/secret`, token, { method: 'POST' }),
      adminApi(`/apps/${APP}/webhooks`, token, { body: { url: `${rxUrl}/v`, events: ['user.created'] } }),
      adminApi(`/apps/${APP}/users/did:portico:x/sessions/revoke`, token, { method: 'POST' }),
    ])
    expect(refused.map((r) => r.status)).toEqual([403, 403, 403, 403])
  })
})
