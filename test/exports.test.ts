/**
 * The public surface, entry by entry: every export name (values, and types marked `type`) of
 * `portico`, `portico/ui`, `portico/testing`, every `portico/kits/<id>` and every `portico/plugins/<id>`, read with the
 * TypeScript checker and compared with the committed snapshot. A removed or renamed export
 * is a breaking change for plugin authors and apps; this makes it visible in review.
 *
 * After an intended change:  npx vitest run test/exports.test.ts -u   (and commit the snapshot)
 */
import { existsSync, readdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { PROVIDER_ENTRIES } from '../source-aliases'
import { beforeAll, describe, expect, it } from 'vitest'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

const entries: Record<string, string> = {
  portico: 'kernel/index.ts',
  'portico/internal': 'kernel/internal.ts',
  'portico/ui': 'ui/index.ts',
  'portico/ui/screens': 'ui/screens.ts',
  'portico/ui/core': 'ui/core.ts',
  'portico/ui/phone-input': 'ui/phone-input.ts',
  'portico/ui/qr': 'ui/qr.tsx',
  'portico/wagmi': 'wagmi/index.ts',
  'portico/server': 'server/index.ts',
  'portico/testing': 'test/kit/testing.ts',
}
for (const id of readdirSync(join(ROOT, 'kits')).sort()) {
  if (existsSync(join(ROOT, 'kits', id, 'index.ts'))) entries[`portico/kits/${id}`] = `kits/${id}/index.ts`
}
for (const id of readdirSync(join(ROOT, 'plugins')).sort()) {
  if (existsSync(join(ROOT, 'plugins', id, 'index.ts'))) entries[`portico/plugins/${id}`] = `plugins/${id}/index.ts`
}
for (const [id, file] of Object.entries(PROVIDER_ENTRIES).sort()) entries[`portico/plugins/${id}`] = file

let checker: ts.TypeChecker
let program: ts.Program

beforeAll(() => {
  const configPath = join(ROOT, 'tsconfig.json')
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile)
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, ROOT)
  program = ts.createProgram(
    Object.values(entries).map((f) => join(ROOT, f)),
    { ...parsed.options, noEmit: true },
  )
  checker = program.getTypeChecker()
}, 120_000)

/** `name` for values (functions, constants, classes), `type name` for type-only exports. */
function exportNames(file: string): string[] {
  const source = program.getSourceFile(join(ROOT, file))
  if (!source) throw new Error(`${file} is not in the program`)
  const moduleSymbol = checker.getSymbolAtLocation(source)
  if (!moduleSymbol) return [] // a file without exports
  return checker
    .getExportsOfModule(moduleSymbol)
    .map((sym) => {
      const target = sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym
      return target.flags & ts.SymbolFlags.Value ? sym.name : `type ${sym.name}`
    })
    .sort()
}

describe('export names of every public entry', () => {
  it.each(Object.keys(entries))('%s', (entry) => {
    expect(exportNames(entries[entry])).toMatchSnapshot()
  })

  it('the package exports map and the rollup entries cover these entries', async () => {
    const pkg = (await import('../package.json', { with: { type: 'json' } })).default as { exports: Record<string, unknown> }
    for (const entry of Object.keys(entries)) {
      const sub = entry === 'portico' ? '.' : `./${entry.slice('portico/'.length)}`
      const key = sub.startsWith('./plugins/') ? './plugins/*' : sub.startsWith('./kits/') ? './kits/*' : sub
      expect(pkg.exports, entry).toHaveProperty([key])
    }
  })
})
