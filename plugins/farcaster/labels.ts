/**
 * The Farcaster texts needed before the user acts (the method's names, the landing row): in the
 * page's first load. The same words are in `FARCASTER_TEXTS` (./strings.ts, which does not import
 * them: a module shared with the lazy chunks would get an initial chunk of its own; the plugin's
 * test checks they match) and take the app's overrides (`texts: { farcaster: {...} }`) the same
 * way.
 */
export const FARCASTER_LABELS = {
  displayName: 'Farcaster',
  rowLabel: 'Farcaster',
  methodLabel: 'Farcaster profile',
}

/** One of these labels with the app's override (`config.texts.farcaster[key]`, strings only, as `ctx.texts` takes them). */
export function farcasterLabel(overrides: Record<string, unknown> | undefined, key: keyof typeof FARCASTER_LABELS): string {
  const v = overrides?.[key]
  return typeof v === 'string' ? v : FARCASTER_LABELS[key]
}
