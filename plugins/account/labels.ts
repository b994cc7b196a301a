/**
 * The account text `kernel.plugin('account').label()` answers synchronously: in the page's first
 * load. The same words are in `ACCOUNT_TEXTS` (./strings.ts, which does not import them: a module
 * shared with the lazy chunks would get an initial chunk of its own; the plugin's test checks they
 * match), with the app's override (`texts: { account: { fallbackLabel } }`) the same way.
 */
export const ACCOUNT_LABELS = {
  /** (ours) The label when no declared method names the link method. */
  fallbackLabel: 'Account',
}

/** One of these labels with the app's override (`config.texts.account[key]`, strings only, as `ctx.texts` takes them). */
export function accountLabel(overrides: Record<string, unknown> | undefined, key: keyof typeof ACCOUNT_LABELS): string {
  const v = overrides?.[key]
  return typeof v === 'string' ? v : ACCOUNT_LABELS[key]
}
