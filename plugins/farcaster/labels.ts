/**
 * The Farcaster texts needed before the user acts (the method's names, the landing row): in the
 * page's first load. They are part of `FARCASTER_TEXTS` (./strings.ts) and take the app's
 * overrides (`texts: { farcaster: {...} }`) the same way.
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
