/**
 * portico/plugins/hcaptcha — hCaptcha as Portico's captcha (kind 'captcha').
 *
 * ```ts
 * import { hcaptcha } from 'portico/plugins/hcaptcha'
 * createPortico({ appId, plugins: [email(), hcaptcha()] })
 * ```
 *
 * On when the app config says captcha is enabled (site key from the config, or `siteKey`).
 * The script loads from `https://js.hcaptcha.com` (and its frames from `https://*.hcaptcha.com`) (`scriptUrl` overrides it; a strict
 * CSP needs its origin in script-src and frame-src). See kits/captcha/README.md for the flow.
 */
import { definePlugin, type PorticoPlugin } from 'portico'
import { setupCaptcha, type CaptchaApi, type CaptchaOptions, type WidgetApi } from 'portico/kits/captcha'

export const HCAPTCHA_SCRIPT_URL = 'https://js.hcaptcha.com/1/api.js?render=explicit'

export interface HcaptchaOptions extends CaptchaOptions {
  /** Widget theme. Default 'light'. */
  theme?: 'light' | 'dark'
}

declare module 'portico' {
  interface PluginApis {
    hcaptcha: CaptchaApi
  }
}

export function hcaptcha(options: HcaptchaOptions = {}): PorticoPlugin<'hcaptcha'> {
  return definePlugin({
    id: 'hcaptcha',
    kind: 'captcha',
    setup(ctx) {
      const { teardown } = setupCaptcha(
        ctx,
        {
          id: 'hcaptcha',
          scriptUrl: options.scriptUrl ?? HCAPTCHA_SCRIPT_URL,
          widget: () => (globalThis as { hcaptcha?: WidgetApi }).hcaptcha,
          renderOptions: { theme: options.theme ?? 'light' },
        },
        options,
      )
      return teardown
    },
  })
}
