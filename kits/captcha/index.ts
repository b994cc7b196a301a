/**
 * portico/kits/captcha — the captcha kit the captcha plugins build on (`portico/plugins/hcaptcha`,
 * `portico/plugins/turnstile`: one file each in ./providers/). `setupCaptcha(ctx, provider,
 * options)` adds the token to the calls that need one, loads the provider's script on first
 * use, and shows the challenge screen when the widget asks. See ./README.md.
 *
 * The curated surface: what a captcha provider needs. Retry and polling timings, the screen id
 * and the list of guarded calls stay in their files (./base.ts is the kit's internal hub).
 */
export { setupCaptcha } from './base'
export type { CaptchaApi, CaptchaOptions, CaptchaTexts, CaptchaProvider, CaptchaState, CaptchaStatus, WidgetApi } from './base'
