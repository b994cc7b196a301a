/**
 * The package as users get it (issue 27): `npm run build` with Node's default heap, `npm pack`,
 * then the tarball installed into a temporary app outside the repository:
 *  - TypeScript type-checks the README's host code with moduleResolution `bundler` and
 *    `node16`, and the third-party plugin of examples/custom-plugin (written against
 *    `portico/testing`, extensionless relative imports) with `bundler`;
 *  - Vite builds the host app from the tarball.
 * The temporary app gets the repository's installed dependencies by symlink (no registry),
 * and the tarball's files are what `npm pack` put in it.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { packPortico } from './pack'

const ROOT = join(import.meta.dirname, '..', '..')
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name)
let app: string
let tarball: string
let files: string[]

function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  // Node's default heap: the build must not need more (a NODE_OPTIONS from outside is dropped).
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', ...env }, maxBuffer: 64 * 1024 * 1024 })
  return { status: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}` }
}

beforeAll(async () => {
  // Built and packed once per source state (./pack.ts; test/e2e/nextjs.spec.ts uses the same tarball).
  const packed = await packPortico()
  app = mkdtempSync(join(tmpdir(), 'portico-consumer-'))
  tarball = packed.tarball
  files = packed.files
  // node_modules: the repository's packages by symlink, portico from the tarball.
  const modules = join(app, 'node_modules')
  mkdirSync(modules)
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (name.startsWith('.') || name === 'portico') continue
    symlinkSync(join(ROOT, 'node_modules', name), join(modules, name))
  }
  mkdirSync(join(modules, 'portico'))
  execFileSync('tar', ['-xzf', tarball, '-C', join(modules, 'portico'), '--strip-components=1'])
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
  cpSync(join(import.meta.dirname, 'host.tsx'), join(app, 'src', 'host.tsx'))
  cpSync(join(import.meta.dirname, 'main.tsx'), join(app, 'src', 'main.tsx'))
  cpSync(join(import.meta.dirname, 'backend.ts'), join(app, 'src', 'backend.ts'))
  cpSync(join(ROOT, 'examples', 'custom-plugin', 'src'), join(app, 'plugin'), { recursive: true })
}, 420_000)
afterAll(() => {
  if (app) rmSync(app, { recursive: true, force: true })
})

function typecheck(name: string, resolution: 'bundler' | 'node16', include: string[]) {
  const base =
    resolution === 'bundler' ? { module: 'ESNext', moduleResolution: 'bundler' } : { module: 'node16', moduleResolution: 'node16' }
  writeFileSync(
    join(app, `tsconfig.${name}.json`),
    JSON.stringify({
      compilerOptions: {
        ...base,
        target: 'ES2022',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        jsx: 'react-jsx',
        strict: true,
        noEmit: true,
        // Our declarations are checked too; third-party ones are theirs (./typecheck.mjs asks
        // the checker about the app's files and the package's, not about other packages').
        skipLibCheck: false,
        types: [],
      },
      include,
    }),
  )
  // TypeScript's checker, as `tsc -p` runs it, reporting the app's code and our declarations.
  const r = run(process.execPath, [join(import.meta.dirname, 'typecheck.mjs'), `tsconfig.${name}.json`], app)
  // Errors in our declarations and the consumer's code count; a third-party package's own
  // declarations (reached through the symlinks, outside the app) are that package's business.
  const errors = r.out.split('\n').filter((line) => /error TS\d+/.test(line) && !/^(\.\.\/)+.*node_modules\//.test(line))
  return { status: r.status, errors, out: r.out }
}

/** A deadline, not a wait: a type-check (before ./typecheck.mjs, of every declaration file) took 270 s on a 2-core machine loaded by other jobs. */
const TSC_DEADLINE = 420_000

describe('the packed package in a consumer app', () => {
  it('ships the built entries, their declarations and the docs; nothing of the sources or tests', () => {
    expect(files).toContain('package.json')
    // The docs a third party needs: the README, the CHANGELOG, the plugin guide and the worked example.
    for (const doc of ['README.md', 'CHANGELOG.md', 'plugins/README.md', 'server/README.md', 'examples/custom-plugin/README.md', 'examples/custom-plugin/src/index.ts']) expect(files).toContain(doc)
    for (const entry of ['kernel/index', 'ui/index', 'ui/screens', 'ui/core', 'plugins/email/index', 'testing/index', 'wagmi/index', 'server/index']) {
      expect(files).toContain(`dist/${entry}.js`)
      expect(files).toContain(`dist/${entry}.d.ts`)
    }
    // No source or test file outside the example.
    expect(files.filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts') && !f.startsWith('examples/custom-plugin/src/'))).toEqual([])
    expect(files.filter((f) => /\.test\./.test(f) && !f.startsWith('examples/custom-plugin/src/'))).toEqual([])
    expect(existsSync(join(app, 'node_modules', 'portico', 'dist', 'ui', 'styles.css'))).toBe(true)
  })

  it('type-checks the README host and backend code and a plugin written against portico/testing (examples/custom-plugin) with moduleResolution bundler', () => {
    const r = typecheck('bundler', 'bundler', ['src/host.tsx', 'src/backend.ts', 'plugin'])
    expect(r.errors).toEqual([])
    if (!r.out.includes('error TS')) expect(r.status).toBe(0)
  }, TSC_DEADLINE)

  it('type-checks the README host and backend code with moduleResolution node16', () => {
    const r = typecheck('host-node16', 'node16', ['src/host.tsx', 'src/backend.ts'])
    expect(r.errors).toEqual([])
    if (!r.out.includes('error TS')) expect(r.status).toBe(0)
  }, TSC_DEADLINE)

  it('a Vite app builds from the tarball', () => {
    writeFileSync(join(app, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="/src/main.tsx"></script>')
    const r = run(bin('vite'), ['build', '--logLevel', 'error', '--outDir', 'dist'], app)
    expect(r.status, r.out).toBe(0)
    expect(readdirSync(join(app, 'dist', 'assets')).some((f) => f.endsWith('.js'))).toBe(true)
  }, TSC_DEADLINE)
})
