/**
 * The server's layout rules (issue 28), read from the import statements of every module:
 *
 * - a feature's routes are mounted by the app assembly (src/app.ts) only: no module imports a
 *   feature's routes file, so nothing outside the HTTP layer depends on it;
 * - core/ and wire/ know no feature;
 * - wire/ is types and the constants the protocols fix: it imports nothing of the server, and of
 *   the client only the shared wire types and the protocol files its door (wire/frame.ts) names;
 * - the wallet frame imports only wire/ (and its own folder and npm packages): no server module,
 *   no client plugin;
 * - a route's authentication is its declaration (core/router.ts): no feature calls
 *   requireAuth / requireAppSecret by hand, except inside a guard it declares;
 * - SQL lives in repo files (a feature's repo.ts, core/repo.ts, core/identity/repo.ts) and the
 *   store: no other module holds a statement or calls `.query`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '..')
const REPO = resolve(ROOT, '../..')

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) return walk(p)
    return /\.(ts|tsx|mjs)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [p] : []
  })
}

/** Relative import targets of a module (static, dynamic and re-exports), resolved to repo paths. */
function imports(file: string): string[] {
  const src = readFileSync(file, 'utf8')
  const specs = [...src.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1])
  return specs.map((s) => relative(REPO, resolve(dirname(file), s)).replace(/\.(ts|tsx|mjs)$/, ''))
}

const rel = (f: string) => relative(ROOT, f)
const src = walk(join(ROOT, 'src'))
const frame = walk(join(ROOT, 'frame'))
const isRoutes = (target: string) => /^examples\/server\/src\/features\/[^/]+\/routes$/.test(target)

describe('server layout', () => {
  it('every feature is a folder with a routes.ts, mounted by app.ts', () => {
    const features = readdirSync(join(ROOT, 'src/features'))
    expect(features.length).toBeGreaterThan(15)
    const app = imports(join(ROOT, 'src/app.ts'))
    for (const f of features) {
      expect(statSync(join(ROOT, 'src/features', f, 'routes.ts')).isFile(), f).toBe(true)
      expect(app, `app.ts mounts ${f}`).toContain(`examples/server/src/features/${f}/routes`)
    }
  })

  it('no module but app.ts imports a routes file', () => {
    const bad = [...src, ...frame]
      .filter((f) => rel(f) !== 'src/app.ts')
      .flatMap((f) => imports(f).filter(isRoutes).map((t) => `${rel(f)} -> ${t}`))
    expect(bad).toEqual([])
  })

  it('core/ and wire/ import no feature', () => {
    const bad = src
      .filter((f) => /^src\/(core|wire)\//.test(rel(f)))
      .flatMap((f) => imports(f).filter((t) => t.startsWith('examples/server/src/features/')).map((t) => `${rel(f)} -> ${t}`))
    expect(bad).toEqual([])
  })

  it('what core/ builds on (config, codes, delivery, keys ...) imports no feature either', () => {
    const below = [...new Set(src.filter((f) => rel(f).startsWith('src/core/')).flatMap(imports))]
      .filter((t) => /^examples\/server\/src\/[^/]+$/.test(t))
      .map((t) => join(REPO, `${t}.ts`))
      .filter((f) => existsSync(f))
    expect(below.length).toBeGreaterThan(3)
    const bad = below.flatMap((f) => imports(f).filter((t) => t.startsWith('examples/server/src/features/')).map((t) => `${rel(f)} -> ${t}`))
    expect(bad).toEqual([])
  })

  it('wire/ imports only wire/, the shared wire types and the protocol files of its door', () => {
    const allowed = [
      /^examples\/server\/src\/wire\//,
      /^kernel\/(wire|errors)$/,
      /^plugins\/embedded-wallet\/protocol$/,
      /^plugins\/delegated-actions\/(protocol|policy)$/,
      /^plugins\/wallet-export\/protocol$/,
      /^plugins\/smart-wallet\/protocol$/,
    ]
    const bad = src
      .filter((f) => rel(f).startsWith('src/wire/'))
      .flatMap((f) => imports(f).filter((t) => !allowed.some((a) => a.test(t))).map((t) => `${rel(f)} -> ${t}`))
    expect(bad).toEqual([])
    // Only the door reaches the client's plugins (and the server's half of the frame protocol, for its types).
    const doors = src.filter((f) => imports(f).some((t) => t.startsWith('plugins/'))).map(rel)
    expect(doors).toEqual(['src/wire/frame-protocol.ts', 'src/wire/frame.ts'])
    // Of the embedded wallet, types only: the frame runs no code of the client's wallet plugin.
    const runtime = doors.flatMap((f) =>
      [...readFileSync(join(ROOT, f), 'utf8').matchAll(/^(import|export)\s+(type\s+)?\{?[^']*'([^']+)'/gm)]
        .filter((m) => m[3].includes('plugins/embedded-wallet/') && !m[2])
        .map((m) => `${f}: ${m[0].split('\n')[0]}`),
    )
    expect(runtime).toEqual([])
  })

  it('the wallet frame imports only wire/ and its own folder', () => {
    const bad = frame.flatMap((f) =>
      imports(f)
        .filter((t) => !t.startsWith('examples/server/frame/') && !/^examples\/server\/src\/wire(\/|$)/.test(t))
        .map((t) => `${rel(f)} -> ${t}`),
    )
    expect(bad).toEqual([])
  })

  it('authentication is declared: no hand requireAuth / requireAppSecret in a feature, but in a declared guard', () => {
    const calls = src
      .filter((f) => rel(f).startsWith('src/features/'))
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .map((line, i) => ({ line, at: `${rel(f)}:${i + 1}` }))
          .filter(({ line }) => /\b(requireAuth|requireAppSecret)\(/.test(line)),
      )
    // Two declared guards: the one that accepts either credential (the audit: the app's backend or
    // the user), and the wallet frame's device guard (a token and a device proof), which the wallet
    // routes declare as `guard: (c, b) => fromDevice(...)`.
    expect(calls.map((c) => c.at)).toEqual([
      expect.stringMatching(/^src\/features\/delegation\/routes\.ts:\d+$/),
      expect.stringMatching(/^src\/features\/wallets\/device\.ts:\d+$/),
    ])
    expect(calls[0].line).toMatch(/requireAppSecret\(c, ctx\).*requireAuth\(c, ctx\)/)
    expect(calls[1].line).toMatch(/^\s*const auth = await requireAuth\(c, ctx\)$/)
    const device = readFileSync(join(ROOT, 'src/features/wallets/device.ts'), 'utf8')
    expect(device).toMatch(/export async function requireDevice\(c: C, ctx: ServerCtx/)
    const delegation = readFileSync(join(ROOT, 'src/features/delegation/routes.ts'), 'utf8')
    expect(delegation).toMatch(/guard: userOrApp/)
  })

  it('SQL lives in repo files: no query and no statement outside a repo.ts and the store', () => {
    const sql = /\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b|\.query\s*[<(]/
    const holders = src
      .map(rel)
      .filter((f) => !/(^|\/)repo\.ts$/.test(f) && !f.startsWith('src/core/store/'))
      .filter((f) => sql.test(readFileSync(join(ROOT, f), 'utf8').replace(/c\.req\.query\(/g, '')))
      .sort()
    expect(holders).toEqual([])
    // The rule bites: the repo files hold the queries.
    expect(src.map(rel).filter((f) => /(^|\/)repo\.ts$/.test(f)).length).toBeGreaterThan(12)
  })
})
