/**
 * Overridable texts. Every plugin keeps its texts in one `<ID>_TEXTS` object (word for word
 * from the spec); an app translates or rewords them with the `texts` option, keyed by the
 * plugin id (`'ui'` for the generic screens, `'kernel'` for the error views):
 *
 * ```ts
 * createPortico({ appId, texts: { email: { submit: 'Weiter' }, ui: { landingHeader: 'Anmelden' } } })
 * ```
 *
 * Only string entries are replaced, and only keys the defaults have (a typo warns).
 */
export type TextOverrides = Record<string, Record<string, string> | undefined>

/** Texts whose string entries may be overridden: `Partial` of the string keys. */
export type TextsOverride<T> = { [K in keyof T]?: T[K] extends string ? string : never }

export function mergeTexts<T extends object>(defaults: T, overrides: Record<string, string> | undefined, warn?: (m: string) => void): T {
  if (!overrides) return defaults
  const out: Record<string, unknown> = { ...(defaults as Record<string, unknown>) }
  for (const [k, v] of Object.entries(overrides)) {
    if (typeof (defaults as unknown as Record<string, unknown>)[k] !== 'string') {
      warn?.(`texts: '${k}' is not a text of this namespace; it is ignored.`)
      continue
    }
    if (typeof v === 'string') out[k] = v
  }
  return Object.freeze(out) as T
}
