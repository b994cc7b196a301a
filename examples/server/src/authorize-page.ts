/**
 * The EIP-7702 authorisation page, on the wallet frame's origin (registered by
 * src/frame-server.ts, like the delegation consent page, src/consent-page.ts, whose stylesheet
 * it shares):
 *
 *   GET /apps/:appId/embedded-wallets/authorize?theme&accent_color&background_color&foreground_color
 *   GET /embedded-wallets/authorize/page.js    its script (examples/server/frame/authorize/main.ts, esbuild)
 *   GET /embedded-wallets/authorize/page.css   its stylesheet (frame/consent/consent.css)
 *
 * The smart-wallet plugin's 'Upgrade your wallet' screen shows it in a visible iframe: the
 * app's name (from this server's settings), the wallet, the contract delegated to by name, the
 * chain, and Allow. Only a trusted click on Allow in this page signs the authorisation. Its
 * CSP: nothing but its own script and stylesheet, requests to the API only, embeddable only by
 * the app's allowed origins. The URL carries no secret (the access token comes by postMessage).
 */
import { fileURLToPath } from 'node:url'
import type { Hono } from 'hono'
import { registerFramePage, themeQuery, type FramePageOptions } from './frame-page'

const ENTRY = fileURLToPath(new URL('../frame/authorize/main.ts', import.meta.url))
const CSS = fileURLToPath(new URL('../frame/consent/consent.css', import.meta.url))

export function registerAuthorizePage(app: Hono, opts: FramePageOptions): void {
  registerFramePage(app, opts, {
    name: 'authorize',
    title: 'Portico wallet upgrade',
    configId: 'portico-authorize-config',
    mainId: 'authorize',
    loadingClass: 'c-loading',
    entry: ENTRY,
    css: CSS,
    params: themeQuery,
    fromApp: (settings) => ({ appName: settings.name || 'This app' }),
  })
}
