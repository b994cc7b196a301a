/**
 * Kits and plugins, ours and third parties', are written against the public surface only:
 * `portico`, `portico/ui` (and its stylesheet), `portico/testing`, `portico/kits/<id>`,
 * `portico/plugins/<id>` and their own files. This test reads every source file under `kits/**`, `plugins/**` and
 * `examples/custom-plugin/**` (TypeScript's own import scanner: static, dynamic and
 * re-exports) and fails on anything else that reaches into the kernel, the ui or the test kit.
 */
import { readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT, importsOf, sourceFiles } from './source-files'


/** Public entries a plugin may import from this package. */
const PUBLIC = /^portico(?:\/ui|\/ui\/screens|\/ui\/core|\/ui\/styles\.css|\/ui\/phone-input|\/ui\/qr|\/wagmi|\/testing|\/(?:kits|plugins)\/[a-z0-9]+(?:-[a-z0-9]+)*)?$/

/**
 * Violations that existed when this test was written, in files owned by other people. The
 * list may only shrink: an entry that no longer occurs fails the test, so delete it when the
 * file is fixed (replace `../../test/kit/index` and `../../test/contract/index` by
 * `portico/testing`, `../../kernel/index` by `portico`).
 */
const KNOWN: Record<string, string[]> = {
}

/** The folder a file may import relatively from: its plugin folder or the example's root. */
export function ownRoot(file: string): string | null {
  const parts = file.split('/')
  if ((parts[0] === 'plugins' || parts[0] === 'kits') && parts.length > 2) return `${parts[0]}/${parts[1]}`
  if (parts[0] === 'examples' && parts[1] === 'custom-plugin') return 'examples/custom-plugin'
  return null
}

/** Why `specifier`, imported from `file` (repo-relative), is not allowed; null when it is. */
export function privateImport(file: string, specifier: string): string | null {
  if (specifier === 'portico' || specifier.startsWith('portico/')) {
    return PUBLIC.test(specifier) ? null : `'${specifier}' is not a public entry of portico`
  }
  if (specifier.startsWith('.') || specifier.startsWith('/')) {
    const own = ownRoot(file)
    const target = relative(ROOT, resolve(ROOT, dirname(file), specifier)).split(sep).join('/')
    if (own && (target === own || target.startsWith(own + '/'))) return null
    return `'${specifier}' leaves ${own ?? 'the plugin'} (resolves to ${target})`
  }
  return null // another package (react, vitest, jose ...)
}

const files = [...sourceFiles('kits'), ...sourceFiles('plugins'), ...sourceFiles('examples/custom-plugin')]

function violationsOf(file: string): string[] {
  const source = readFileSync(join(ROOT, file), 'utf8')
  return importsOf(source).filter((s) => privateImport(file, s) !== null)
}

describe('the import checker', () => {
  it('allows the public entries, other packages and own files', () => {
    for (const s of ['portico', 'portico/ui', 'portico/ui/screens', 'portico/ui/styles.css', 'portico/testing', 'portico/kits/code', 'portico/plugins/email', 'react', 'vitest', './calls', '../strings']) {
      expect(privateImport('plugins/email/screens/code.tsx', s), s).toBeNull()
    }
    expect(privateImport('examples/custom-plugin/src/screens/login.tsx', '../../idp/server')).toBeNull()
  })

  it('flags private paths of the kernel, the ui, the test kit and other plugins', () => {
    const bad: [string, string][] = [
      ['plugins/email/index.ts', '../../kernel/errors'],
      ['plugins/email/screens/code.tsx', '../../../ui/components/button'],
      ['plugins/email/email.test.tsx', '../../test/kit/index'],
      ['plugins/email/index.ts', '../sms/calls'],
      ['plugins/email/index.ts', 'portico/ui/components/button'],
      ['plugins/email/index.ts', 'portico/kernel/errors'],
      ['plugins/email/index.ts', 'portico/plugins/sms/calls'],
      ['plugins/email/index.ts', 'portico/kits/code/flow'],
      ['kits/code/flow.ts', '../oauth/flow'],
      ['examples/custom-plugin/src/index.ts', '../../../kernel/index'],
      ['examples/custom-plugin/src/index.ts', '/work/main/kernel/index'],
    ]
    for (const [file, s] of bad) expect(privateImport(file, s), `${file}: ${s}`).not.toBeNull()
  })

  it('sees static, dynamic, side-effect and re-export imports, not comments', () => {
    const src = `
      // import x from '../../kernel/commented'
      /** import { y } from '../../ui/doc' */
      import a from 'a'
      import type { B } from '../../kernel/b'
      export { c } from './c'
      import 'portico/ui/styles.css'
      const d = () => import('./screens/d')
    `
    expect(importsOf(src).sort()).toEqual(['../../kernel/b', './c', './screens/d', 'a', 'portico/ui/styles.css'].sort())
  })
})

describe('plugins and examples/custom-plugin import only the public surface', () => {
  it('finds the files to check', () => {
    expect(files.length).toBeGreaterThan(10)
    expect(files.some((f) => f.startsWith('examples/custom-plugin/'))).toBe(true)
  })

  it.each(files)('%s', (file) => {
    const found = violationsOf(file)
    const known = KNOWN[file] ?? []
    const fresh = found.filter((s) => !known.includes(s))
    expect(fresh.map((s) => `${s}: ${privateImport(file, s)}`), `private imports in ${file}`).toEqual([])
  })

  it('the list of known violations only shrinks (remove fixed entries)', () => {
    const stale: string[] = []
    for (const [file, specs] of Object.entries(KNOWN)) {
      let found: string[] = []
      try {
        found = violationsOf(file)
      } catch {
        /* file removed */
      }
      for (const s of specs) if (!found.includes(s)) stale.push(`${file}: ${s}`)
    }
    expect(stale).toEqual([])
  })
})
