/**
 * The texts the entry needs before any screen of this plugin has loaded: its funding methods'
 * labels (the `fundingMethods` tap), overridable under `texts: { 'coinbase-onramp': {...} }` like every
 * other text. COINBASE_ONRAMP_TEXTS's own (./strings.ts), copied so the lazy texts chunk shares no module
 * with the entry (a test keeps them equal).
 */
export const COINBASE_ONRAMP_METHOD_LABELS = {
  cardLabel: 'Buy with Coinbase',
  cardDescription: 'Pay with a card through Coinbase',
  exchangeLabel: 'Transfer from Coinbase',
  exchangeDescription: 'Send from your Coinbase account',
  /** (ours) What the user sees on a method that cannot fund this chain; the spec's text below goes to the console. */
  unsupportedChain: 'Coinbase is not available on {network}.',
  /** Spec part 2 section 5 / 8, for developers: the console and the error's message. */
  unsupportedChainDetail: 'Unsupported chainId: {id} for Coinbase Onramp',
}

/** A label with the app's override (`config.texts[namespace][key]`), without loading the other texts. */
export function methodLabel<T extends Record<string, string>>(texts: Record<string, Record<string, string> | undefined>, namespace: string, defaults: T, key: keyof T & string): string {
  const v = texts[namespace]?.[key]
  return typeof v === 'string' ? v : defaults[key]
}
