// One entry per public module: kernel, ui, testing, every kits/<id>/index.ts and plugins/<id>/index.ts.
// Dependencies, peers and the package's own subpaths stay external, so an app's bundler
// tree-shakes per plugin and every entry shares one kernel instance.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import esbuild from 'rollup-plugin-esbuild'
import { dts } from 'rollup-plugin-dts'

const pkg = JSON.parse(readFileSync('./package.json', 'utf8'))
const deps = [
  ...Object.keys(pkg.dependencies ?? {}),
  ...Object.keys(pkg.peerDependencies ?? {}),
  ...Object.keys(pkg.devDependencies ?? {}),
  ...builtinModules,
]
const external = (id) =>
  id === 'portico' ||
  id.startsWith('portico/') ||
  id.startsWith('node:') ||
  deps.some((d) => id === d || id.startsWith(`${d}/`))

const input = { 'kernel/index': 'kernel/index.ts', 'kernel/internal': 'kernel/internal.ts' }
if (existsSync('ui/index.ts')) input['ui/index'] = 'ui/index.ts'
if (existsSync('ui/screens.ts')) input['ui/screens'] = 'ui/screens.ts'
if (existsSync('ui/core.ts')) input['ui/core'] = 'ui/core.ts'
if (existsSync('ui/phone-input.ts')) input['ui/phone-input'] = 'ui/phone-input.ts'
if (existsSync('ui/qr.tsx')) input['ui/qr'] = 'ui/qr.tsx'
if (existsSync('wagmi/index.ts')) input['wagmi/index'] = 'wagmi/index.ts'
if (existsSync('server/index.ts')) input['server/index'] = 'server/index.ts'
if (existsSync('test/kit/index.ts')) input['testing/index'] = 'test/kit/testing.ts'
for (const id of existsSync('kits') ? readdirSync('kits') : []) {
  if (existsSync(`kits/${id}/index.ts`)) input[`kits/${id}/index`] = `kits/${id}/index.ts`
}
// Plugins that are one file over a kit (kits/<kit>/providers/<id>.tsx) publish as plugins/<id>.
for (const kit of existsSync('kits') ? readdirSync('kits') : []) {
  for (const f of existsSync(`kits/${kit}/providers`) ? readdirSync(`kits/${kit}/providers`) : []) {
    if (/^[a-z0-9-]+\.tsx?$/.test(f)) input[`plugins/${f.replace(/\.tsx?$/, '')}/index`] = `kits/${kit}/providers/${f}`
  }
}
for (const id of existsSync('plugins') ? readdirSync('plugins') : []) {
  if (existsSync(`plugins/${id}/index.ts`)) input[`plugins/${id}/index`] = `plugins/${id}/index.ts`
}
if (!existsSync('test/kit/testing.ts')) delete input['testing/index']

/** Where `tsc -p tsconfig.dts.json` writes the per-file declarations the second config bundles. */
export const DTS_DIR = '.tmp/dts'

const copyCss = {
  name: 'copy-css',
  writeBundle() {
    if (existsSync('ui/styles.css')) {
      mkdirSync('dist/ui', { recursive: true })
      copyFileSync('ui/styles.css', 'dist/ui/styles.css')
    }
  },
}

/**
 * Next.js App Router: the React entries (ui, every kit and every plugin) are client modules. Rollup drops
 * module-level directives from sources, so the directive is added to those entry files as a
 * banner; the kernel (framework-free, usable on a server) and testing get none.
 */
export const USE_CLIENT = "'use client';"
export const isClientEntry = (name) => name.startsWith('ui/') || name.startsWith('kits/') || name.startsWith('plugins/')
const banner = (chunk) => (chunk.isEntry && isClientEntry(chunk.name) ? USE_CLIENT : '')

export default [
  {
    input,
    external,
    plugins: [esbuild({ target: 'es2022', jsx: 'automatic', tsconfig: 'tsconfig.json' }), copyCss],
    output: {
      dir: 'dist',
      format: 'es',
      banner,
      entryFileNames: '[name].js',
      chunkFileNames: 'chunks/[name]-[hash].js',
    },
  },
  {
    // Declarations: `tsc -p tsconfig.dts.json` (one program, ~30 s, < 1 GB) writes one .d.ts per
    // source file to .tmp/dts first (`npm run build` does both); this step only bundles those
    // files per entry. Given the .ts sources instead, rollup-plugin-dts builds a program per
    // entry and runs out of V8's default heap on 49 entries.
    input: Object.fromEntries(Object.entries(input).map(([name, file]) => [name, `${DTS_DIR}/${file.replace(/\.tsx?$/, '.d.ts')}`])),
    external: (id) => external(id) || id.endsWith('.css'),
    plugins: [dts({ compilerOptions: { baseUrl: '.', paths: {} } })],
    output: { dir: 'dist', format: 'es', entryFileNames: '[name].d.ts', chunkFileNames: 'chunks/[name]-[hash].d.ts' },
  },
]
