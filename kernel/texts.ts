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

/**
 * The kernel's `texts(namespace, defaults)`: defaults merged with the app's overrides of that
 * namespace, once per defaults object until the config changes (`clear()`).
 */
export function createTexts(overrides: () => TextOverrides, warn: (message: string, source: string) => void) {
  const cache = new Map<string, WeakMap<object, object>>()
  return {
    texts<T extends object>(namespace: string, defaults: T): T {
      let byDefaults = cache.get(namespace)
      if (!byDefaults) cache.set(namespace, (byDefaults = new WeakMap()))
      let merged = byDefaults.get(defaults) as T | undefined
      if (!merged) byDefaults.set(defaults, (merged = mergeTexts(defaults, overrides()[namespace], (m) => warn(m, namespace))))
      return merged
    },
    clear: () => cache.clear(),
  }
}

/** Fill `{name}` placeholders. Unknown placeholders stay as they are. */
export function formatText(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m))
}
