/**
 * The texts the entry needs before any funding screen has loaded: the labels of the methods
 * this base adds to the `fundingMethods` hook, overridable under `texts: { funding: {...} }`
 * like every other text. The same texts as in FUNDING_TEXTS (./strings.ts; a test keeps them
 * equal): a copy, so the lazy texts chunk shares no module with the entry (one chunk less).
 */
export const FUNDING_METHOD_LABELS = {
  manualLabel: 'Receive funds',
  manualDescription: 'Send funds to this address',
  walletLabel: 'Transfer from wallet',
  walletDescription: 'Send from a wallet you already have',
  unsupported: 'Not available for this network',
}

/** A label with the app's override (`config.texts[namespace][key]`), without loading the other texts. */
export function methodLabel<T extends Record<string, string>>(texts: Record<string, Record<string, string> | undefined>, namespace: string, defaults: T, key: keyof T & string): string {
  const v = texts[namespace]?.[key]
  return typeof v === 'string' ? v : defaults[key]
}
