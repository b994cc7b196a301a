/**
 * The few passkey texts needed before the user acts (the method's name, the landing row, a
 * passkey's fallback title): in the page's first load. The same words are in `PASSKEY_TEXTS`
 * (./strings.ts, which does not import them: a module shared with the lazy chunks would get an
 * initial chunk of its own; the plugin's test checks they match) and take the app's overrides
 * (`texts: { passkey: {...} }`) the same way.
 */
export const PASSKEY_LABELS = {
  // Spec, part 1 section 2 (display name)
  displayName: 'passkey',
  // Spec, part 1 section 3 (display title fallback)
  unknownDevice: 'Unknown device',
  // Not given by the spec (ours)
  rowLabel: 'Passkey',
}

/** One of these labels with the app's override (`config.texts.passkey[key]`, strings only, as `ctx.texts` takes them). */
export function passkeyLabel(overrides: Record<string, unknown> | undefined, key: keyof typeof PASSKEY_LABELS): string {
  const v = overrides?.[key]
  return typeof v === 'string' ? v : PASSKEY_LABELS[key]
}
