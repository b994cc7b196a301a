/**
 * Inside this repository `portico`, `portico/ui`, `portico/testing`, `portico/kits/*` and `portico/plugins/*`
 * resolve to the sources, for vitest and the example apps' Vite configs alike.
 */
import { existsSync, readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const r = (p: string) => fileURLToPath(new URL(p, import.meta.url))

/**
 * Plugins that are one file over a kit (`kits/<kit>/providers/<id>.tsx`: the OAuth providers),
 * public as `portico/plugins/<id>` like any plugin: id -> repo-relative file.
 */
export const PROVIDER_ENTRIES: Record<string, string> = Object.fromEntries(
  (existsSync(r('./kits')) ? readdirSync(r('./kits')) : []).flatMap((kit) =>
    (existsSync(r(`./kits/${kit}/providers`)) ? readdirSync(r(`./kits/${kit}/providers`)) : [])
      .filter((f) => /^[a-z0-9-]+\.tsx?$/.test(f))
      .map((f) => [f.replace(/\.tsx?$/, ''), `kits/${kit}/providers/${f}`]),
  ),
)

export const sourceAliases = [
  { find: /^portico$/, replacement: r('./kernel/index.ts') },
  { find: /^portico\/internal$/, replacement: r('./kernel/internal.ts') },
  { find: /^portico\/ui\/styles\.css$/, replacement: r('./ui/styles.css') },
  { find: /^portico\/ui$/, replacement: r('./ui/index.ts') },
  { find: /^portico\/ui\/screens$/, replacement: r('./ui/screens.ts') },
  { find: /^portico\/ui\/core$/, replacement: r('./ui/core.ts') },
  { find: /^portico\/ui\/phone-input$/, replacement: r('./ui/phone-input.ts') },
  { find: /^portico\/ui\/qr$/, replacement: r('./ui/qr.tsx') },
  { find: /^portico\/wagmi$/, replacement: r('./wagmi/index.ts') },
  { find: /^portico\/server$/, replacement: r('./server/index.ts') },
  { find: /^portico\/testing$/, replacement: r('./test/kit/testing.ts') },
  { find: /^portico\/kits\/(.*)$/, replacement: r('./kits/$1/index.ts') },
  ...Object.entries(PROVIDER_ENTRIES).map(([id, file]) => ({ find: new RegExp(`^portico/plugins/${id}$`), replacement: r(`./${file}`) })),
  { find: /^portico\/plugins\/(.*)$/, replacement: r('./plugins/$1/index.ts') },
]
