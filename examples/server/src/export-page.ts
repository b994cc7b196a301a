/**
 * The key export page, on the wallet frame's origin (registered by src/frame-server.ts):
 *
 *   GET /apps/:appId/embedded-wallets/export?client_id&primaryAddress&address&walletIndex
 *       &width&caid&phrase_export&theme&accent_color&background_color&foreground_color
 *   GET /embedded-wallets/export/page.js    its script (examples/server/frame/export/main.ts, esbuild)
 *   GET /embedded-wallets/export/page.css   its stylesheet
 *
 * Its CSP: nothing but its own script and stylesheet, requests to the API only, embeddable only
 * by the app's allowed origins. The URL carries no secret (the access token comes by
 * postMessage); every query value is checked here and the page refuses anything else.
 */
import { fileURLToPath } from 'node:url'
import type { Hono } from 'hono'
import { registerFramePage, themeQuery, type FramePageOptions } from './frame-page'

export { escapeJson, exportCsp, pageBundler } from './frame-page'

export type ExportPageOptions = FramePageOptions

const ENTRY = fileURLToPath(new URL('../frame/export/main.ts', import.meta.url))
const CSS = fileURLToPath(new URL('../frame/export/export.css', import.meta.url))

const ADDRESS = /^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$/
const ID = /^[A-Za-z0-9._:-]{1,128}$/

/** The page's settings from its query, or the name of the first bad parameter. */
export function exportQuery(q: (k: string) => string | undefined): { ok: true; value: Record<string, unknown> } | { ok: false; param: string } {
  const bad = (param: string) => ({ ok: false as const, param })
  const primaryAddress = q('primaryAddress') ?? ''
  const address = q('address') ?? ''
  if (!ADDRESS.test(primaryAddress)) return bad('primaryAddress')
  if (!ADDRESS.test(address)) return bad('address')
  const idx = q('walletIndex') ?? '0'
  if (!/^\d{1,10}$/.test(idx) || Number(idx) >= 2 ** 31) return bad('walletIndex')
  const width = q('width')
  if (width !== undefined && width !== '' && !/^\d{2,4}$/.test(width)) return bad('width')
  const phrase = q('phrase_export') ?? 'false'
  if (phrase !== 'true' && phrase !== 'false') return bad('phrase_export')
  const look = themeQuery(q)
  if (!look.ok) return look
  for (const param of ['client_id', 'caid']) {
    const v = q(param)
    if (v !== undefined && v !== '' && !ID.test(v)) return bad(param)
  }
  return {
    ok: true,
    value: {
      clientId: q('client_id') || null,
      caid: q('caid') || null,
      primaryAddress,
      address,
      walletIndex: Number(idx),
      width: width ? Number(width) : null,
      phraseExport: phrase === 'true',
      ...look.value,
    },
  }
}

export function registerExportPage(app: Hono, opts: ExportPageOptions): void {
  registerFramePage(app, opts, { name: 'export', title: 'Portico wallet export', configId: 'portico-export-config', mainId: 'export', loadingClass: 'x-loading', entry: ENTRY, css: CSS, params: exportQuery })
}
