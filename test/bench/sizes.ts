/**
 * Bundle sizes, measured the way the issue fixes it: esbuild, minified, `gzip -9`, React and
 * react-dom excluded. Shared by `npm run bench` and the size budget test.
 */
import { build, type Metafile, type Plugin } from 'esbuild'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { gzipSync } from 'node:zlib'
import { PROVIDER_ENTRIES } from '../../source-aliases'

export const ROOT = join(import.meta.dirname, '..', '..')
const REACT = ['react', 'react-dom', 'react/jsx-runtime', 'react-dom/client', 'react/jsx-dev-runtime', 'scheduler']

/** Where `portico` and its subpaths resolve inside the repo (sources, as the apps see them). */
export const aliases: Record<string, string> = {
  portico: join(ROOT, 'kernel/index.ts'),
  'portico/ui': join(ROOT, 'ui/index.ts'),
  'portico/ui/screens': join(ROOT, 'ui/screens.ts'),
  'portico/ui/core': join(ROOT, 'ui/core.ts'),
  'portico/ui/phone-input': join(ROOT, 'ui/phone-input.ts'),
  'portico/ui/qr': join(ROOT, 'ui/qr.tsx'),
  'portico/wagmi': join(ROOT, 'wagmi/index.ts'),
  'portico/testing': join(ROOT, 'test/kit/testing.ts'),
}
for (const id of existsSync(join(ROOT, 'kits')) ? readdirSync(join(ROOT, 'kits')) : []) {
  if (existsSync(join(ROOT, 'kits', id, 'index.ts'))) aliases[`portico/kits/${id}`] = join(ROOT, 'kits', id, 'index.ts')
}
for (const id of existsSync(join(ROOT, 'plugins')) ? readdirSync(join(ROOT, 'plugins')) : []) {
  if (existsSync(join(ROOT, 'plugins', id, 'index.ts'))) aliases[`portico/plugins/${id}`] = join(ROOT, 'plugins', id, 'index.ts')
}
for (const [id, file] of Object.entries(PROVIDER_ENTRIES)) aliases[`portico/plugins/${id}`] = join(ROOT, file)

/** Resolve `portico`, `portico/ui`, `portico/plugins/<id>` exactly; `portico/ui/styles.css` to the file. */
const resolvePortico: Plugin = {
  name: 'portico-sources',
  setup(b) {
    b.onResolve({ filter: /^portico(\/.*)?$/ }, (args) => {
      if (aliases[args.path]) return { path: aliases[args.path] }
      if (args.path === 'portico/ui/styles.css') return { path: join(ROOT, 'ui/styles.css') }
      return undefined
    })
  },
}

/**
 * The bench's own host entries (./hosts/): the provider and a login button with a set of
 * plugins at their default options, no demo code. Measured like the example apps.
 */
export const BENCH_HOSTS = {
  /** The README's e-mail-only app (./hosts/readme-email.tsx): issue 27's small default entry. */
  readmeEmail: { label: "README's e-mail-only app", file: join(ROOT, 'test/bench/hosts/readme-email.tsx') },
  /** Every plugin of plugins/ (./hosts/every-plugin.tsx; size.test.ts checks that none is missing). */
  everyPlugin: { label: 'every plugin, host code only', file: join(ROOT, 'test/bench/hosts/every-plugin.tsx') },
  /** The identity plugins issue 11's 60 KiB target was set for (./hosts/identity-plugins.ts lists them). */
  identity: { label: "identity plugins (issue 11's 20 + captcha)", file: join(ROOT, 'test/bench/hosts/identity.tsx') },
} as const

/** Public plugin entries (plugins/<id>, and providers over a kit) that export a plugin factory. */
export function pluginFactories(): string[] {
  return Object.entries(aliases)
    .filter(([name]) => name.startsWith('portico/plugins/'))
    .filter(([, file]) => /export (function \w+\([^)]*\): PorticoPlugin|const \w+ = define\w*Provider\()/.test(readFileSync(file, 'utf8')))
    .map(([name]) => name.slice('portico/plugins/'.length))
}

export interface Size {
  min: number
  gzip: number
}
const gz = (text: Uint8Array | string) => gzipSync(text, { level: 9 }).length

/** The public entries: kernel, ui and every plugin. */
export function entries(): Record<string, string> {
  const out: Record<string, string> = { kernel: aliases.portico }
  if (existsSync(aliases['portico/ui'])) out.ui = aliases['portico/ui']
  if (existsSync(aliases['portico/ui/screens'])) out['ui/screens'] = aliases['portico/ui/screens']
  for (const [k, v] of Object.entries(aliases)) if (k.startsWith('portico/plugins/')) out[k.slice('portico/'.length)] = v
  return out
}

/**
 * One entry alone: its own code and its dependencies, with the other portico entries
 * external (they are shared, paid once) and React excluded. Lazy chunks count separately.
 */
export async function entrySize(file: string): Promise<Size & { lazy: number; deps: Record<string, number> }> {
  const self = Object.values(aliases).indexOf(file)
  const selfName = Object.keys(aliases)[self]
  const result = await build({
    entryPoints: { entry: file },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    splitting: true,
    outdir: join(ROOT, '.tmp', 'size'),
    write: false,
    metafile: true,
    logLevel: 'silent',
    jsx: 'automatic',
    external: [...REACT, ...Object.keys(aliases).filter((k) => k !== selfName), '*.css'],
    define: { 'process.env.NODE_ENV': '"production"' },
  })
  return measure(result.outputFiles, result.metafile, 'entry')
}

/** An app's initial load (entry + static imports) and the total of all chunks. */
export async function appSize(
  entryFile: string,
): Promise<{ initial: Size; total: Size; deps: Record<string, number>; files: Record<string, number> }> {
  const result = await build({
    entryPoints: { main: entryFile },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    splitting: true,
    outdir: join(ROOT, '.tmp', 'app-size'),
    write: false,
    metafile: true,
    logLevel: 'silent',
    jsx: 'automatic',
    plugins: [resolvePortico],
    external: [...REACT],
    loader: { '.css': 'empty', '.svg': 'dataurl', '.png': 'dataurl' },
    define: { 'process.env.NODE_ENV': '"production"' },
  })
  const m = await measure(result.outputFiles, result.metafile, 'main')
  let totalMin = 0
  let totalGz = 0
  for (const f of result.outputFiles) {
    if (!f.path.endsWith('.js')) continue
    totalMin += f.contents.length
    totalGz += gz(f.contents)
  }
  return { initial: { min: m.min, gzip: m.gzip }, total: { min: totalMin, gzip: totalGz }, deps: m.deps, files: m.files }
}

async function measure(files: { path: string; contents: Uint8Array; text: string }[], meta: Metafile, entryName: string) {
  const outputs = meta.outputs
  const byPath = new Map(files.map((f) => [relative(process.cwd(), f.path), f]))
  const entryKey = Object.keys(outputs).find((k) => k.endsWith(`/${entryName}.js`))!
  // Initial load: the entry and, transitively, its static imports.
  const initial = new Set<string>()
  const visit = (k: string) => {
    if (initial.has(k)) return
    initial.add(k)
    for (const imp of outputs[k].imports) if (imp.kind === 'import-statement' && outputs[imp.path]) visit(imp.path)
  }
  visit(entryKey)
  let min = 0
  const texts: string[] = []
  const deps: Record<string, number> = {}
  const byFile: Record<string, number> = {}
  for (const k of initial) {
    const f = byPath.get(k) ?? files.find((x) => x.path.endsWith(k))
    if (!f) continue
    min += f.contents.length
    texts.push(f.text)
    for (const [input, v] of Object.entries(outputs[k].inputs)) {
      const name = input.includes('node_modules/')
        ? input.split('node_modules/').pop()!.split('/').slice(0, input.split('node_modules/').pop()!.startsWith('@') ? 2 : 1).join('/')
        : input.split('/')[0] === 'plugins'
          ? input.split('/').slice(0, 2).join('/')
          : input.split('/')[0]
      deps[name] = (deps[name] ?? 0) + v.bytesInOutput
      const file = input.includes('node_modules/') ? name : input
      byFile[file] = (byFile[file] ?? 0) + v.bytesInOutput
    }
  }
  const lazy = Object.keys(outputs)
    .filter((k) => k.endsWith('.js') && !initial.has(k))
    .reduce((n, k) => n + (byPath.get(k)?.contents.length ?? 0), 0)
  // gzip the initial chunks as the browser gets them: each file on its own.
  const gzip = texts.reduce((n, t) => n + gz(t), 0)
  return { min, gzip, lazy, deps, files: byFile }
}
