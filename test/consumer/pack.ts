/**
 * The package as users get it, for the consumer checks (issue 27): `node scripts/build.mjs`
 * (Node's default heap), then `npm pack` into .tmp/pack/<source stamp>/, once per source state
 * (a second caller, or a later run on unchanged sources, reuses the tarball), and the helpers
 * that install it into a temporary app outside the repository:
 *
 * ```ts
 * const { tarball, files } = await packPortico()
 * const app = mkdtempSync(join(tmpdir(), 'portico-x-'))
 * installModules(app, tarball, [join(ROOT, 'node_modules')])
 * ```
 */
import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export const ROOT = join(import.meta.dirname, '..', '..')

/** What the build and `npm pack` read: the sources of every entry, the build's settings, the packed docs. */
const INPUTS = [
  'kernel',
  'ui',
  'kits',
  'plugins',
  'wagmi',
  'server',
  'types',
  'test/kit',
  'examples/custom-plugin/src',
  'examples/custom-plugin/README.md',
  'scripts/build.mjs',
  'rollup.config.mjs',
  'tsconfig.json',
  'tsconfig.dts.json',
  'package.json',
  'package-lock.json',
  'README.md',
  'CHANGELOG.md',
]

function sourceStamp(): string {
  const h = createHash('sha1')
  const add = (p: string) => {
    if (!existsSync(p)) return
    const st = statSync(p)
    if (st.isDirectory()) {
      for (const name of readdirSync(p).sort()) {
        if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue
        add(join(p, name))
      }
    } else h.update(`${p}:${st.size}:${st.mtimeMs}\n`)
  }
  for (const p of INPUTS) add(join(ROOT, p))
  return h.digest('hex').slice(0, 16)
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Run a command to its end without blocking the event loop; output is stdout and stderr together. */
export function run(
  cmd: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  timeoutMs = 300_000,
): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve) => {
    // Node's default heap: the build must not need more (a NODE_OPTIONS from outside is dropped).
    const child = spawn(cmd, args, { cwd, env: { ...process.env, NODE_OPTIONS: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let out = ''
    child.stdout!.on('data', (d) => (out += d))
    child.stderr!.on('data', (d) => (out += d))
    const timer = setTimeout(() => {
      out += `\n[killed after ${timeoutMs} ms]`
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        /* gone */
      }
    }, timeoutMs)
    child.on('close', (status) => {
      clearTimeout(timer)
      resolve({ status, out })
    })
  })
}

export interface Packed {
  /** The .tgz `npm pack` wrote. */
  tarball: string
  /** The paths in it (package/ stripped). */
  files: string[]
  /** The build's output when this call built; '' when the tarball of this source state existed. */
  buildOutput: string
}

/**
 * Build and pack unless a tarball of the current sources exists. One builder at a time across
 * processes (a lock folder); folders of older stamps go after an hour.
 */
export async function packPortico(): Promise<Packed> {
  const base = join(ROOT, '.tmp', 'pack')
  const stamp = sourceStamp()
  const out = join(base, stamp)
  const done = join(out, 'pack.json')
  const read = (buildOutput: string): Packed => {
    const packed = JSON.parse(readFileSync(done, 'utf8'))
    return { tarball: join(out, packed[0].filename), files: packed[0].files.map((f: { path: string }) => f.path), buildOutput }
  }
  if (existsSync(done)) return read('')
  mkdirSync(base, { recursive: true })
  const lock = join(base, `${stamp}.lock`)
  for (let i = 0; ; i++) {
    try {
      mkdirSync(lock)
      break
    } catch {
      if (existsSync(done)) return read('')
      try {
        if (Date.now() - statSync(lock).mtimeMs > 400_000) rmSync(lock, { recursive: true, force: true })
      } catch {
        /* gone meanwhile */
      }
      if (i > 2000) throw new Error('Timed out waiting for another process to build and pack portico')
      await sleep(250)
    }
  }
  try {
    if (existsSync(done)) return read('')
    const build = await run(process.execPath, ['scripts/build.mjs'], ROOT)
    if (build.status !== 0) throw new Error(`npm run build failed (exit ${build.status}):\n${build.out}`)
    rmSync(out, { recursive: true, force: true })
    mkdirSync(out, { recursive: true })
    const pack = spawnSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
    if (pack.status !== 0) throw new Error(`npm pack failed (exit ${pack.status})`)
    // npm prints the JSON last (lifecycle output may precede it).
    const json = pack.stdout.slice(pack.stdout.indexOf('[\n'))
    JSON.parse(json)
    writeFileSync(done, json)
    for (const name of readdirSync(base)) {
      const p = join(base, name)
      if (name !== stamp && !name.endsWith('.lock') && Date.now() - statSync(p).mtimeMs > 3_600_000) rmSync(p, { recursive: true, force: true })
    }
    return read(build.out)
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

/**
 * `<app>/node_modules`: portico extracted from the tarball (the files `npm pack` put in it), and
 * every package of `moduleDirs` by symlink, the first folder's package winning on a name clash
 * (no registry).
 */
export function installModules(app: string, tarball: string, moduleDirs: string[]): void {
  const modules = join(app, 'node_modules')
  mkdirSync(modules, { recursive: true })
  const taken = new Set(['portico'])
  for (const dir of moduleDirs) {
    for (const name of readdirSync(dir)) {
      if (name.startsWith('.') || taken.has(name)) continue
      if (name.startsWith('@')) {
        // A scope present in both folders: merge its packages.
        mkdirSync(join(modules, name), { recursive: true })
        for (const sub of readdirSync(join(dir, name))) {
          if (taken.has(`${name}/${sub}`)) continue
          taken.add(`${name}/${sub}`)
          symlinkSync(join(dir, name, sub), join(modules, name, sub))
        }
        continue
      }
      taken.add(name)
      symlinkSync(join(dir, name), join(modules, name))
    }
  }
  mkdirSync(join(modules, 'portico'))
  const tar = spawnSync('tar', ['-xzf', tarball, '-C', join(modules, 'portico'), '--strip-components=1'])
  if (tar.status !== 0) throw new Error(`tar failed: ${tar.stderr}`)
}
