/**
 * The cross-app texts needed before the user acts (the landing row, and the refusals `transact()`
 * throws synchronously inside the click): in the page's first load. The same words are in
 * `CROSS_APP_TEXTS` (./strings.ts, which does not import them: a module shared with the lazy
 * chunks would get an initial chunk of its own; the plugin's test checks they match) and take the
 * app's overrides (`texts: { 'cross-app': {...} }`) the same way.
 */
export const CROSS_APP_LABELS = {
  displayName: 'cross-app',
  rowLabel: '{app}',
  issue: 'There was an issue connecting your {app} account. Please try again.',
  readOnly: 'Cannot transact against a read-only provider app',
}

/** One of these labels with the app's override (`config.texts['cross-app'][key]`, strings only, as `ctx.texts` takes them). */
export function crossAppLabel(overrides: Record<string, unknown> | undefined, key: keyof typeof CROSS_APP_LABELS): string {
  const v = overrides?.[key]
  return typeof v === 'string' ? v : CROSS_APP_LABELS[key]
}
