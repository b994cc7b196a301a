// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createTestKernel, pluginContract } from 'portico/testing'
import { turnstile } from 'portico/plugins/turnstile'

/** A minimal provider global: render() calls back with a token for the site key. */
const widgetScript = (name: string) =>
  `window.${name} = { render(el, o) { setTimeout(() => o.callback('pass.' + o.sitekey + '.' + Math.random()), 1); return 'w1' }, reset() {}, remove() {} }`

pluginContract(() => turnstile(), { enabled: ['email'] })

afterEach(() => {
  delete (globalThis as Record<string, unknown>).turnstile
  document.head.innerHTML = ''
})

describe('turnstile()', () => {
  it('is a captcha plugin that loads its script from the official URL (overridable) only when needed', async () => {
    const { kernel, net } = await createTestKernel({ plugins: [turnstile()], app: { captcha_enabled: true, captcha_site_key: 'sk-pass' } })
    expect(kernel.plugins[0].kind).toBe('captcha')
    const appended: HTMLScriptElement[] = []
    const spy = vi.spyOn(document.head, 'appendChild').mockImplementation(<T extends Node>(el: T) => (appended.push(el as never), el))
    expect(appended).toEqual([]) // nothing loads at start-up
    net.on('POST', '/passwordless/init', { success: true })
    const call = kernel.api.post('/passwordless/init', { email: 'ana@example.com' })
    await vi.waitFor(() => expect(appended).toHaveLength(1)) // the token flow loads on first use, then the script
    spy.mockRestore()
    const script = appended[0]
    expect(script.src).toBe('https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit')
    // The script "arrives": the stand-in defines the provider's global, then onload fires.
    new Function(widgetScript('turnstile'))()
    script.onload?.(new Event('load'))
    await call
    expect(net.callsTo('POST', '/passwordless/init')[0].body.token).toMatch(/^pass\.sk-pass\./)
  })

  it('takes the site key and script URL from options', async () => {
    new Function(widgetScript('turnstile'))()
    const { kernel, net } = await createTestKernel({ plugins: [turnstile({ siteKey: 'sk-own', scriptUrl: '/local.js' })], app: { captcha_enabled: true, captcha_site_key: null } })
    net.on('POST', '/passwordless/init', { success: true })
    await kernel.api.post('/passwordless/init', { email: 'ana@example.com' })
    expect(net.callsTo('POST', '/passwordless/init')[0].body.token).toMatch(/^pass\.sk-own\./)
  })
})
