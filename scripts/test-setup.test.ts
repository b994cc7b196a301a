/**
 * `node scripts/test-setup.mjs`, the first step of `npm test`, run for real. PORTICO_PROBE_ROOT
 * points its probe at a made-up root folder (a Debian with nothing installed) so that this
 * machine's own Chromium and PostgreSQL stay where they are.
 */
import { spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { machineProbe, planSetup } from './test-env.mjs'

const isRoot = process.getuid?.() === 0
const roots: string[] = []

// The two scripts (node built-ins only), copied where the ordinary user below can read them
// whatever the clone's folder (/root/... in CI).
const scripts = mkdtempSync(join(tmpdir(), 'portico-setup-'))
chmodSync(scripts, 0o755)
roots.push(scripts)
for (const f of ['test-setup.mjs', 'test-env.mjs']) copyFileSync(fileURLToPath(new URL(`./${f}`, import.meta.url)), join(scripts, f))
const SCRIPT = join(scripts, 'test-setup.mjs')
/** A root folder holding only /etc/os-release (Debian's, when `debian`) and the given executables. */
function fakeRoot({ debian = true, exe = [] as string[] } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'portico-probe-'))
  chmodSync(root, 0o755) // readable by the non-root user below
  roots.push(root)
  const put = (p: string, text: string, mode = 0o644) => {
    mkdirSync(join(root, p, '..'), { recursive: true })
    writeFileSync(join(root, p), text, { mode })
  }
  if (debian) {
    put('/etc/os-release', 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n')
    put('/usr/bin/apt-get', '', 0o755)
  }
  for (const p of exe) put(p, '', 0o755)
  return root
}
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true })
})

/** Runs the set-up step; `asUser` runs it as an ordinary user (nobody) when this runs as root. */
function setup(env: Record<string, string>, { args = [] as string[], asUser = false } = {}) {
  const [cmd, argv] = asUser && isRoot ? ['runuser', ['-u', 'nobody', '--', process.execPath, SCRIPT, ...args]] : [process.execPath, [SCRIPT, ...args]]
  const r = spawnSync(cmd, argv, { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8', cwd: tmpdir() })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

describe('npm test set-up step', () => {
  // (Not where it would install: that is the dry run below.)
  const here = planSetup(machineProbe({ PATH: process.env.PATH }))
  it.skipIf(here.install.length > 0)('this machine: says what the run uses (or why it stops) and nothing else', () => {
    const r = setup({})
    if (here.stop) {
      expect(r.stderr).toBe(`\n${here.stop}\n\n`)
      expect(r.status).toBe(1)
    } else {
      expect(r.stderr).toBe('')
      expect(r.stdout).toBe(here.lines.map((l) => `${l}\n`).join(''))
      expect(r.stdout).toMatch(/^Browser tests: \/\S+\nPostgreSQL suites: (running \(\/\S+\)|skipped: .+)\n$/)
      expect(r.status).toBe(0)
    }
  })

  it('an ordinary user on a Debian without them: stops at once with the command to run', () => {
    const r = setup({ PORTICO_PROBE_ROOT: fakeRoot() }, { asUser: true })
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('npm test needs a Chromium or Chrome for its browser tests. No Chromium or Chrome found')
    expect(r.stderr).toContain('Install what is missing, then run npm test again:\n  sudo apt-get install -y chromium postgresql\n')
    expect(r.status).toBe(1)
  })

  it('CHROMIUM_PATH to a missing file: stops and says so', () => {
    const r = setup({ CHROMIUM_PATH: '/nowhere/chrome' }, { asUser: true })
    expect(r.stderr).toContain('CHROMIUM_PATH is set to /nowhere/chrome, but there is no executable there.')
    expect(r.status).toBe(1)
  })

  it.skipIf(!isRoot)('root on a Debian without them: installs chromium and postgresql with apt-get (dry run)', () => {
    const r = setup({ PORTICO_PROBE_ROOT: fakeRoot() }, { args: ['--dry-run'] })
    expect(r.stdout).toBe(
      'test setup: installing chromium postgresql (apt-get; a minute or two)\n' +
        'test setup (dry run): would run: apt-get update -qq\n' +
        'test setup (dry run): would run: apt-get install -y -qq --no-install-recommends chromium postgresql\n',
    )
    expect(r.status).toBe(0)
  })

  it('PostgreSQL missing: skipped with the reason outside CI, a failure under CI=true', () => {
    const root = fakeRoot({ debian: false, exe: ['/usr/bin/chromium'] })
    const local = setup({ PORTICO_PROBE_ROOT: root }, { asUser: true })
    expect(local.stdout).toContain('PostgreSQL suites: skipped: no PostgreSQL server found (initdb and postgres on PATH or in /usr/lib/postgresql/*/bin)')
    expect(local.status).toBe(0)
    const ci = setup({ PORTICO_PROBE_ROOT: root, CI: 'true' }, { asUser: true })
    expect(ci.stderr).toContain('PostgreSQL suites: required in CI (CI=true), but no PostgreSQL server found')
    expect(ci.status).toBe(1)
  })
})
