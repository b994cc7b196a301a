/**
 * The export page on the wallet frame's origin: its strict CSP (embeddable only by the app's
 * allowed origins), its query checks (public data only; anything else 400), and its script.
 */
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { loadApps } from '../src/config'
import { exportCsp, exportQuery, registerExportPage } from '../src/export-page'
import { APPS_FILE } from './helpers'

const XPD = 'portico-test-xpd-00000001'
const ETH = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const SOL = 'HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH'
const apps = loadApps(APPS_FILE)
const app = new Hono()
registerExportPage(app, { apps, apiUrl: 'http://127.0.0.1:8787', minify: false })

const page = (q: Record<string, string>, appId = XPD) => app.request(`/apps/${appId}/embedded-wallets/export?${new URLSearchParams(q)}`)

describe('the export page', () => {
  it('is served with its own strict CSP, embeddable only by the app’s allowed origins, and carries its settings', async () => {
    const r = await page({ client_id: 'c1', primaryAddress: ETH, address: ETH, walletIndex: '0', width: '312', phrase_export: 'false', theme: 'dark', accent_color: '#5b4cdb' })
    expect(r.status).toBe(200)
    const csp = r.headers.get('content-security-policy')!
    expect(csp).toBe(exportCsp('http://127.0.0.1:8787', apps.get(XPD)!.allowedOrigins))
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("style-src 'self'")
    expect(csp).toContain('connect-src http://127.0.0.1:8787')
    expect(csp).toContain(`frame-ancestors ${apps.get(XPD)!.allowedOrigins.join(' ')}`)
    expect(csp).not.toContain('unsafe')
    expect(r.headers.get('cache-control')).toBe('no-store')
    const html = await r.text()
    const config = JSON.parse(/<script type="application\/json" id="portico-export-config">(.*?)<\/script>/.exec(html)![1])
    expect(config).toMatchObject({ appId: XPD, primaryAddress: ETH, address: ETH, walletIndex: 0, phraseExport: false, theme: 'dark', colors: { accent: '#5b4cdb' }, width: 312, clientId: 'c1' })
    expect(html).not.toMatch(/style=|<style/)
  })

  it('refuses anything but public, well-formed values (no way to smuggle markup or a token through the URL)', async () => {
    const ok = { primaryAddress: ETH, address: SOL }
    expect((await page(ok)).status).toBe(200)
    for (const [k, v] of [
      ['primaryAddress', 'x'],
      ['address', '0x123'],
      ['address', `${ETH}<script>`],
      ['walletIndex', '-1'],
      ['walletIndex', '1e3'],
      ['phrase_export', 'yes'],
      ['theme', 'blue'],
      ['accent_color', 'red;background:url(x)'],
      ['background_color', '#12345'],
      ['width', '9999999'],
      ['client_id', '</script><script>alert(1)</script>'],
    ]) {
      const r = await page({ ...ok, [k]: v })
      expect([k, r.status]).toEqual([k, 400])
    }
    expect((await page(ok, 'portico-unknown-app-00001')).status).toBe(404)
    expect(exportQuery((k) => ({ primaryAddress: ETH, address: ETH, walletIndex: '3', phrase_export: 'true' })[k])).toMatchObject({ ok: true, value: { walletIndex: 3, phraseExport: true, theme: 'light' } })
  })

  it('serves its stylesheet', async () => {
    const css = await app.request('/embedded-wallets/export/page.css')
    expect(css.status).toBe(200)
    expect(css.headers.get('content-type')).toContain('text/css')
  })
})
