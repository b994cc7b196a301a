/**
 * The texts the entry needs before any screen of this plugin has loaded: its funding methods'
 * labels (the `fundingMethods` tap), overridable under `texts: { bridge: {...} }` like every
 * other text. BRIDGE_TEXTS's own (./strings.ts), copied so the lazy texts chunk shares no module
 * with the entry (a test keeps them equal).
 */
export const BRIDGE_METHOD_LABELS = {
  label: 'Transfer from another network',
  description: 'Bridge funds from another network',
}

/** A label with the app's override (`config.texts[namespace][key]`), without loading the other texts. */
export function methodLabel<T extends Record<string, string>>(texts: Record<string, Record<string, string> | undefined>, namespace: string, defaults: T, key: keyof T & string): string {
  const v = texts[namespace]?.[key]
  return typeof v === 'string' ? v : defaults[key]
}
