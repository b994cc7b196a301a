/**
 * The delegation consent page, on the wallet frame's origin (registered by src/frame-server.ts,
 * like the export page, src/export-page.ts):
 *
 *   GET /apps/:appId/embedded-wallets/delegate?theme&accent_color&background_color&foreground_color
 *   GET /embedded-wallets/delegate/page.js    its script (examples/server/frame/consent/main.ts, esbuild)
 *   GET /embedded-wallets/delegate/page.css   its stylesheet
 *
 * 'Enable offline access' shows it in a visible iframe: the app's name (from this server's app
 * settings, not from the host), the wallet and the policy in plain words, and Allow. Only a
 * trusted click on Allow in this page seals the wallet's key (with the policy) to the server.
 * Its CSP: nothing but its own script and stylesheet, requests to the API only, embeddable only
 * by the app's allowed origins. The URL carries no secret (the access token comes by postMessage).
 */
import { fileURLToPath } from 'node:url'
import type { Hono } from 'hono'
import { registerFramePage, themeQuery, type FramePageOptions } from './frame-page'

export type ConsentPageOptions = FramePageOptions

const ENTRY = fileURLToPath(new URL('../frame/consent/main.ts', import.meta.url))
const CSS = fileURLToPath(new URL('../frame/consent/consent.css', import.meta.url))

/** The page's settings from its query (theme and colours), or the name of the first bad parameter. */
export const consentQuery = themeQuery

export function registerConsentPage(app: Hono, opts: ConsentPageOptions): void {
  registerFramePage(app, opts, {
    name: 'delegate',
    title: 'Portico offline access',
    configId: 'portico-consent-config',
    mainId: 'consent',
    loadingClass: 'c-loading',
    entry: ENTRY,
    css: CSS,
    params: consentQuery,
    fromApp: (settings) => ({ appName: settings.name || 'This app' }),
  })
}
