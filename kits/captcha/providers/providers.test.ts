// @vitest-environment happy-dom
/**
 * The captcha providers, one table: the plugin contract, the script from the provider's
 * official URL (overridable) loaded only when a call needs a token, the token on the call, and
 * the site key and script URL from options. Imported through the public entries, as an app does.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createTestKernel, pluginContract } from 'portico/testing'
import { hcaptcha } from 'portico/plugins/hcaptcha'
import { turnstile } from 'portico/plugins/turnstile'

const PROVIDERS = [
  { id: 'hcaptcha', plugin: hcaptcha, scriptUrl: 'https://js.hcaptcha.com/1/api.js?render=explicit' },
  { id: 'turnstile', plugin: turnstile, scriptUrl: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit' },
]

/** A minimal provider global: render() calls back with a token for the site key. */
const widgetScript = (name: string) =>
  `window.${name} = { render(el, o) { setTimeout(() => o.callback('pass.' + o.sitekey + '.' + Math.random()), 1); return 'w1' }, reset() {}, remove() {} }`

for (const p of PROVIDERS) pluginContract(() => p.plugin(), { enabled: ['email'] })

afterEach(() => {
  for (const p of PROVIDERS) delete (globalThis as Record<string, unknown>)[p.id]
  document.head.innerHTML = ''
})

describe.each(PROVIDERS)('$id()', (p) => {
  it('is a captcha plugin that loads its script from the official URL (overridable) only when needed', async () => {
    const { kernel, net } = await createTestKernel({ plugins: [p.plugin()], app: { captcha_enabled: true, captcha_site_key: 'sk-pass' } })
    expect(kernel.plugins[0].kind).toBe('captcha')
    expect(kernel.plugins[0].id).toBe(p.id)
    const appended: HTMLScriptElement[] = []
    const spy = vi.spyOn(document.head, 'appendChild').mockImplementation(<T extends Node>(el: T) => (appended.push(el as never), el))
    expect(appended).toEqual([]) // nothing loads at start-up
    net.on('POST', '/passwordless/init', { success: true })
    const call = kernel.api.post('/passwordless/init', { email: 'ana@example.com' })
    await vi.waitFor(() => expect(appended).toHaveLength(1)) // the token flow loads on first use, then the script
    spy.mockRestore()
    const script = appended[0]
    expect(script.src).toBe(p.scriptUrl)
    // The script "arrives": the stand-in defines the provider's global, then onload fires.
    new Function(widgetScript(p.id))()
    script.onload?.(new Event('load'))
    await call
    expect(net.callsTo('POST', '/passwordless/init')[0].body.token).toMatch(/^pass\.sk-pass\./)
  })

  it('takes the site key and script URL from options', async () => {
    new Function(widgetScript(p.id))()
    const { kernel, net } = await createTestKernel({ plugins: [p.plugin({ siteKey: 'sk-own', scriptUrl: '/local.js' })], app: { captcha_enabled: true, captcha_site_key: null } })
    net.on('POST', '/passwordless/init', { success: true })
    await kernel.api.post('/passwordless/init', { email: 'ana@example.com' })
    expect(net.callsTo('POST', '/passwordless/init')[0].body.token).toMatch(/^pass\.sk-own\./)
  })
})
