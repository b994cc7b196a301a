// @vitest-environment happy-dom
/**
 * The captcha base through turnstile() and hcaptcha() in a real kernel (only fetch is
 * doubled), with the stand-in widget of test/stand-ins/captcha.ts as the provider's global.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createTestKernel } from 'portico/testing'
import { PorticoError, type PorticoPlugin } from 'portico'
import { turnstile } from 'portico/plugins/turnstile'
import { hcaptcha } from 'portico/plugins/hcaptcha'
import { type CaptchaApi, CAPTCHA_SCREEN, FIRST_RETRY_DELAY_MS, WAIT_TIMEOUT_MS } from './base'
import { CAPTCHA_TEXTS } from './strings'
import { widgetScript } from './stand-in'


const g = globalThis as Record<string, unknown>
beforeEach(() => {
  new Function(widgetScript('turnstile'))()
  new Function(widgetScript('hcaptcha'))()
})
afterEach(() => {
  vi.useRealTimers()
  delete g.turnstile
  delete g.hcaptcha
  document.body.innerHTML = ''
})

async function kernelWith(siteKey = 'sk-pass', enabled = true, plugin: PorticoPlugin = turnstile()) {
  const t = await createTestKernel({ plugins: [plugin], app: { login_methods: ['email'], captcha_enabled: enabled, captcha_site_key: siteKey } })
  t.net.on('POST', '/passwordless/init', { success: true })
  t.net.on('POST', '/telegram/authenticate', { status: 400, body: { code: 'invalid_captcha', error: 'Captcha token is missing or invalid.' } })
  await t.kernel.loadDeclarations() // error views declared lazily (the modal's screens wait for them)
  return t
}

describe('captcha token on init calls (request hook)', () => {
  it('headless: a widget at the end of the body solves one; each init gets its own token', async () => {
    const { kernel, net } = await kernelWith()
    await kernel.api.post('/passwordless/init', { email: 'ana@example.com' })
    await kernel.api.post('/passwordless/init', { email: 'ana@example.com' })
    const [a, b] = net.callsTo('POST', '/passwordless/init').map((c) => c.body.token)
    expect(a).toMatch(/^pass\.sk-pass\./)
    expect(b).toMatch(/^pass\.sk-pass\./)
    expect(a).not.toBe(b)
    expect(kernel.plugin<CaptchaApi>('turnstile').state.get().token).toBeNull()
  })

  it('Telegram carries it as captcha_token; calls that take none are untouched', async () => {
    const { kernel, net } = await kernelWith('sk-pass', true, hcaptcha())
    net.on('POST', '/guest/authenticate', { status: 400, body: { code: 'invalid_data', error: 'x' } })
    await expect(kernel.api.post('/telegram/authenticate', { telegram_auth_result: { id: 1 } })).rejects.toMatchObject({ code: 'invalid_captcha' })
    expect(net.callsTo('POST', '/telegram/authenticate')[0].body.captcha_token).toMatch(/^pass\./)
    await expect(kernel.api.post('/guest/authenticate', { guest_credential: 'x' })).rejects.toBeTruthy()
    expect(net.callsTo('POST', '/guest/authenticate')[0].body).toEqual({ guest_credential: 'x' })
  })

  it('captcha off: no token, no widget', async () => {
    const { kernel, net } = await kernelWith('sk-pass', false)
    await kernel.api.post('/passwordless/init', { email: 'ana@example.com' })
    expect(net.callsTo('POST', '/passwordless/init')[0].body).toEqual({ email: 'ana@example.com' })
    expect(kernel.plugin<CaptchaApi>('turnstile').state.get().status).toBe('disabled')
  })

  it('a failing widget retries 3 times (1 s, 2 s, 4 s), then captcha_failure with the adblocker hint', async () => {
    vi.useFakeTimers()
    const { kernel } = await kernelWith('fail-key')
    const render = vi.spyOn(g.turnstile as { reset(): void }, 'reset')
    const call = kernel.api.post('/passwordless/init', { email: 'ana@example.com' }).catch((e: unknown) => e)
    await vi.advanceTimersByTimeAsync(50)
    expect(kernel.plugin<CaptchaApi>('turnstile').state.get()).toMatchObject({ status: 'loading', retries: 1 })
    await vi.advanceTimersByTimeAsync(FIRST_RETRY_DELAY_MS - 100)
    expect(render).toHaveBeenCalledTimes(0)
    await vi.advanceTimersByTimeAsync(200)
    expect(render).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(2 * FIRST_RETRY_DELAY_MS + 4 * FIRST_RETRY_DELAY_MS + 500)
    expect(render).toHaveBeenCalledTimes(3)
    const err = (await call) as PorticoError
    expect(err.code).toBe('captcha_failure')
    expect(err.message).toBe('You did not pass CAPTCHA. Please try again.')
    const view = kernel.screens.resolveError(err)
    expect(view.title).toBe(CAPTCHA_TEXTS.failure)
    expect(view.detail).toBe('If you use an adblocker or VPN, try disabling and re-attempting.')
  })

  it('no token within 20 s: captcha_timeout (polled every 200 ms)', async () => {
    vi.useFakeTimers()
    const { kernel } = await kernelWith('interactive-key')
    const call = kernel.api.post('/passwordless/init', { email: 'ana@example.com' }).catch((e: unknown) => e)
    await vi.advanceTimersByTimeAsync(WAIT_TIMEOUT_MS + 500)
    const err = (await call) as PorticoError
    expect(err.code).toBe('captcha_timeout')
    expect(kernel.screens.resolveError(err).title).toBe('Something went wrong! Please try again later.')
  })

  it('an interactive challenge waits for the user (no auto-continue), then the call goes on', async () => {
    const { kernel, net } = await kernelWith('interactive-key')
    const call = kernel.api.post('/passwordless/init', { email: 'ana@example.com' })
    await vi.waitFor(() => expect(document.querySelector('.portico-captcha-headless button')).not.toBeNull())
    await new Promise((r) => setTimeout(r, 300))
    expect(net.callsTo('POST', '/passwordless/init')).toHaveLength(0)
    ;(document.querySelector('.portico-captcha-headless button') as HTMLButtonElement).click()
    await call
    expect(net.callsTo('POST', '/passwordless/init')[0].body.token).toMatch(/^pass\.interactive-key\./)
  })

  it("headless with the host's container: the widget renders there", async () => {
    const { kernel, net } = await kernelWith()
    const mine = document.body.appendChild(document.createElement('section'))
    kernel.plugin<CaptchaApi>('turnstile').mount(mine)
    await vi.waitFor(() => expect(kernel.plugin<CaptchaApi>('turnstile').state.get().status).toBe('success'))
    await kernel.api.post('/passwordless/init', { email: 'ana@example.com' })
    await kernel.api.post('/passwordless/init', { email: 'ana@example.com' })
    expect(net.callsTo('POST', '/passwordless/init').map((c) => c.body.token)).toHaveLength(2)
    expect(document.querySelector('.portico-captcha-headless')).toBeNull()
  })

  it("a blocked script: captcha_failure, start-up unaffected", async () => {
    delete g.turnstile
    const { kernel } = await kernelWith('sk-pass', true, turnstile({ scriptUrl: 'http://127.0.0.1:9/blocked.js' }))
    expect(kernel.isReady).toBe(true)
    const err = (await kernel.api.post('/passwordless/init', { email: 'a@b.co' }).catch((e: unknown) => e)) as PorticoError
    expect(err.code).toBe('captcha_failure')
    expect(document.querySelector('script[src="http://127.0.0.1:9/blocked.js"]')).toBeNull()
  })

  it("'invalid_captcha' shows 'Please try again.' and resets the captcha", async () => {
    const { kernel } = await kernelWith()
    kernel.plugin<CaptchaApi>('turnstile').state.set({ token: 'stale', status: 'success' })
    const view = kernel.screens.resolveError(new PorticoError('invalid_captcha', 'x', { kind: 'api_error' }))
    expect(view.title).toBe('Please try again.')
    expect(kernel.plugin<CaptchaApi>('turnstile').state.get()).toMatchObject({ token: null, status: 'ready', retries: 0 })
  })
})

describe('captcha screen', () => {
  it('is inserted on the landing of a login flow when no token exists, not for an authenticated user', async () => {
    const { kernel } = await kernelWith()
    kernel.screens.register({ id: 'landing', component: () => null })
    void kernel.screens.open('landing', {}, { intent: 'login' })
    await new Promise((r) => setTimeout(r, 0))
    expect(kernel.screens.getState().current?.id).toBe(CAPTCHA_SCREEN)
    expect(kernel.screens.getState().stack.map((s) => s.id)).toEqual(['landing', CAPTCHA_SCREEN])
    kernel.screens.dismiss()
    // Captcha off: never inserted.
    const off = await kernelWith('sk-pass', false)
    off.kernel.screens.register({ id: 'landing', component: () => null })
    void off.kernel.screens.open('landing', {}, { intent: 'login' })
    await new Promise((r) => setTimeout(r, 0))
    expect(off.kernel.screens.getState().current?.id).toBe('landing')
  })
})
