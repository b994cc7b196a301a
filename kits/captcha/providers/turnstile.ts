/**
 * portico/plugins/turnstile — Cloudflare Turnstile as Portico's captcha (kind 'captcha').
 *
 * ```ts
 * import { turnstile } from 'portico/plugins/turnstile'
 * createPortico({ appId, plugins: [email(), turnstile()] })
 * ```
 *
 * On when the app config says captcha is enabled (site key from the config, or `siteKey`).
 * The script loads from `https://challenges.cloudflare.com` (`scriptUrl` overrides it; a strict
 * CSP needs its origin in script-src and frame-src). See kits/captcha/README.md for the flow.
 */
import { definePlugin, type PorticoPlugin } from 'portico'
import { setupCaptcha, type CaptchaApi, type CaptchaOptions, type WidgetApi } from 'portico/kits/captcha'

export const TURNSTILE_SCRIPT_URL = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit'

export interface TurnstileOptions extends CaptchaOptions {
  /** Widget theme. Default 'auto'. */
  theme?: 'auto' | 'light' | 'dark'
}

declare module 'portico' {
  interface PluginApis {
    turnstile: CaptchaApi
  }
}

export function turnstile(options: TurnstileOptions = {}): PorticoPlugin<'turnstile'> {
  return definePlugin({
    id: 'turnstile',
    kind: 'captcha',
    setup(ctx) {
      const { teardown } = setupCaptcha(
        ctx,
        {
          id: 'turnstile',
          scriptUrl: options.scriptUrl ?? TURNSTILE_SCRIPT_URL,
          widget: () => (globalThis as { turnstile?: WidgetApi }).turnstile,
          renderOptions: { theme: options.theme ?? 'auto' },
        },
        options,
      )
      return teardown
    },
  })
}
