/**
 * The few SMS texts needed before the user acts (the method's names, the landing input's
 * placeholder line): in the page's first load. The same words are in `SMS_TEXTS` (./strings.ts,
 * which does not import them: a module shared with the lazy chunks would get an initial chunk of
 * its own; the plugin's test checks they match) and take the app's overrides (`texts: { sms: {...}
 * }`) the same way.
 */
export const SMS_LABELS = {
  /** Login method display name (part 1 section 2). */
  displayName: 'SMS',
  /** Method label on the link-conflict screen (part 1 section 2, "Method labels"). */
  methodLabel: 'Phone number',
  /** (ours) The spec asks for consent text with the app name but gives no wording. */
  consent: 'By providing your phone number, you agree to receive SMS messages from {app}.',
}

/** One of these labels with the app's override (`config.texts.sms[key]`, strings only, as `ctx.texts` takes them). */
export function smsLabel(overrides: Record<string, unknown> | undefined, key: keyof typeof SMS_LABELS): string {
  const v = overrides?.[key]
  return typeof v === 'string' ? v : SMS_LABELS[key]
}
