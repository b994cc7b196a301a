/**
 * `npm test`'s set-up decisions (scripts/test-env.mjs) on made-up machines: where the browser and
 * PostgreSQL are found, when the step installs (Debian as root), when it stops and with which
 * command, and what it says about the PostgreSQL suites.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { browserPath, findBrowser, findPostgres, planSetup, type Probe } from './test-env.mjs'

const DEBIAN_RELEASE = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nID=debian\n'
const UBUNTU_RELEASE = 'NAME="Ubuntu"\nID=ubuntu\nID_LIKE=debian\n'
const DEBIAN_CHROMIUM = '/usr/bin/chromium'
const DEBIAN_PG = ['/usr/lib/postgresql/15/bin/initdb', '/usr/lib/postgresql/15/bin/postgres']
const APT = '/usr/bin/apt-get'

/** A machine with these executables (and the folders that hold them) and these text files. */
function machine(o: { platform?: NodeJS.Platform; env?: Record<string, string>; root?: boolean; exe?: string[]; text?: Record<string, string> }): Probe {
  const exe = new Set(o.exe ?? [])
  return {
    platform: o.platform ?? 'linux',
    env: { PATH: '/usr/local/bin:/usr/bin:/bin', ...o.env },
    isRoot: o.root ?? false,
    isExecutable: (p) => exe.has(p),
    readdir: (dir) => [...new Set([...exe].filter((p) => p.startsWith(`${dir}/`)).map((p) => p.slice(dir.length + 1).split('/')[0]))],
    readFile: (p) => o.text?.[p] ?? null,
  }
}
const debian = (o: Parameters<typeof machine>[0] = {}) =>
  machine({ ...o, exe: [APT, ...(o.exe ?? [])], text: { '/etc/os-release': DEBIAN_RELEASE, ...o.text } })

describe('finding the browser', () => {
  it("CHROMIUM_PATH first, then Debian's chromium", () => {
    const env = { CHROMIUM_PATH: '/opt/my/chrome' }
    expect(findBrowser(machine({ env, exe: ['/opt/my/chrome', DEBIAN_CHROMIUM] })).path).toBe('/opt/my/chrome')
    expect(findBrowser(machine({ exe: [DEBIAN_CHROMIUM, '/usr/bin/google-chrome'] })).path).toBe(DEBIAN_CHROMIUM)
  })

  it('a Chrome or Chromium on PATH, then the usual places of Linux', () => {
    expect(findBrowser(machine({ env: { PATH: '/home/ana/bin:/usr/bin' }, exe: ['/home/ana/bin/google-chrome-stable', '/opt/google/chrome/chrome'] })).path).toBe(
      '/home/ana/bin/google-chrome-stable',
    )
    expect(findBrowser(machine({ env: { PATH: '/usr/bin' }, exe: ['/opt/google/chrome/chrome'] })).path).toBe('/opt/google/chrome/chrome')
    expect(findBrowser(machine({ env: { PATH: '' }, exe: ['/snap/bin/chromium'] })).path).toBe('/snap/bin/chromium')
  })

  it('macOS: Chrome or Chromium in /Applications or ~/Applications', () => {
    const chrome = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'
    expect(findBrowser(machine({ platform: 'darwin', exe: [chrome] })).path).toBe(chrome)
    const mine = '/Users/ana/Applications/Chromium.app/Contents/MacOS/Chromium'
    expect(findBrowser(machine({ platform: 'darwin', env: { HOME: '/Users/ana' }, exe: [mine] })).path).toBe(mine)
  })

  it('CHROMIUM_PATH set to a missing file is not passed over for another browser', () => {
    const b = findBrowser(machine({ env: { CHROMIUM_PATH: '/nowhere/chrome' }, exe: [DEBIAN_CHROMIUM] }))
    expect(b).toMatchObject({ path: null, explicit: true })
    expect(planSetup(debian({ root: true, env: { CHROMIUM_PATH: '/nowhere/chrome' }, exe: [DEBIAN_CHROMIUM, ...DEBIAN_PG] }))).toMatchObject({
      install: [],
      stop: 'npm test needs a Chromium or Chrome for its browser tests. CHROMIUM_PATH is set to /nowhere/chrome, but there is no executable there.\n' +
        'Point CHROMIUM_PATH at a Chrome or Chromium executable, or unset it.',
    })
  })
})

describe('finding PostgreSQL', () => {
  it("PATH first, then Debian's newest /usr/lib/postgresql/<v>/bin, then Homebrew", () => {
    const v = (n: number) => [`/usr/lib/postgresql/${n}/bin/initdb`, `/usr/lib/postgresql/${n}/bin/postgres`]
    expect(findPostgres(machine({ exe: [...v(9), ...v(15), ...v(13)] })).bin).toBe('/usr/lib/postgresql/15/bin')
    expect(findPostgres(machine({ exe: [...v(15), '/usr/local/bin/initdb', '/usr/local/bin/postgres'] })).bin).toBe('/usr/local/bin')
    const brew = ['/opt/homebrew/opt/postgresql@17/bin/initdb', '/opt/homebrew/opt/postgresql@17/bin/postgres']
    expect(findPostgres(machine({ platform: 'darwin', exe: brew })).bin).toBe('/opt/homebrew/opt/postgresql@17/bin')
  })

  it('initdb alone (the client package) is not a server', () => {
    expect(findPostgres(machine({ exe: ['/usr/lib/postgresql/15/bin/initdb'] }))).toEqual({
      bin: null,
      reason: 'no PostgreSQL server found (initdb and postgres on PATH or in /usr/lib/postgresql/*/bin)',
    })
  })
})

describe('the set-up plan', () => {
  it('everything there: no install, one line for the browser and one for the PostgreSQL suites', () => {
    expect(planSetup(debian({ root: true, exe: [DEBIAN_CHROMIUM, ...DEBIAN_PG] }))).toMatchObject({
      install: [],
      stop: null,
      lines: ['Browser tests: /usr/bin/chromium', 'PostgreSQL suites: running (/usr/lib/postgresql/15/bin)'],
    })
  })

  it('Debian as root: installs what is missing, like .ci/run did', () => {
    expect(planSetup(debian({ root: true })).install).toEqual(['chromium', 'postgresql'])
    expect(planSetup(debian({ root: true, exe: DEBIAN_PG })).install).toEqual(['chromium'])
    expect(planSetup(debian({ root: true, exe: [DEBIAN_CHROMIUM] })).install).toEqual(['postgresql'])
  })

  it('Debian, not root: stops at once naming the command', () => {
    const plan = planSetup(debian({}))
    expect(plan.install).toEqual([])
    expect(plan.stop).toBe(
      'npm test needs a Chromium or Chrome for its browser tests. No Chromium or Chrome found (looked at CHROMIUM_PATH, /usr/bin/chromium, ' +
        'chromium, chromium-browser, google-chrome, google-chrome-stable, chrome on PATH, /usr/bin/chromium-browser, /usr/bin/google-chrome, ' +
        '/usr/bin/google-chrome-stable, /opt/google/chrome/chrome, /snap/bin/chromium).\n' +
        'Install what is missing, then run npm test again:\n  sudo apt-get install -y chromium postgresql\n' +
        'or set CHROMIUM_PATH to a Chrome or Chromium executable.',
    )
  })

  it('after an install that did not help: stops instead of installing again', () => {
    const plan = planSetup(debian({ root: true }), { canInstall: false })
    expect(plan.install).toEqual([])
    expect(plan.stop).toContain('\n  apt-get install -y chromium postgresql\n')
  })

  it('not Debian (Ubuntu, macOS, other Linux): never installs; names what to install', () => {
    const ubuntu = machine({ root: true, exe: [APT], text: { '/etc/os-release': UBUNTU_RELEASE } })
    expect(planSetup(ubuntu).install).toEqual([])
    expect(planSetup(ubuntu).stop).toContain('\n  install Chromium or Google Chrome and PostgreSQL (its initdb and postgres) with your package manager\n')
    expect(planSetup(machine({ platform: 'darwin', root: true })).stop).toContain('\n  brew install --cask google-chrome && brew install postgresql@17\n')
  })

  it('no PostgreSQL outside CI: the suites are skipped, saying why and what to run', () => {
    const plan = planSetup(debian({ exe: [DEBIAN_CHROMIUM] }))
    expect(plan.stop).toBeNull()
    expect(plan.lines).toEqual([
      'Browser tests: /usr/bin/chromium',
      'PostgreSQL suites: skipped: no PostgreSQL server found (initdb and postgres on PATH or in /usr/lib/postgresql/*/bin); ' +
        'to run them: sudo apt-get install -y postgresql',
    ])
  })

  it('no PostgreSQL under CI=true (and no way to install it): the run stops', () => {
    const plan = planSetup(debian({ env: { CI: 'true' }, exe: [DEBIAN_CHROMIUM] }))
    expect(plan.stop).toBe(
      'PostgreSQL suites: required in CI (CI=true), but no PostgreSQL server found (initdb and postgres on PATH or in /usr/lib/postgresql/*/bin).\n' +
        'Install it, then run npm test again:\n  sudo apt-get install -y postgresql',
    )
    // CI=false / CI=0 is not CI.
    expect(planSetup(debian({ env: { CI: 'false' }, exe: [DEBIAN_CHROMIUM] })).stop).toBeNull()
    expect(planSetup(debian({ env: { CI: '0' }, exe: [DEBIAN_CHROMIUM] })).stop).toBeNull()
  })
})

describe('browserPath() (what the harness and the bench launch)', () => {
  afterEach(() => vi.unstubAllEnvs())

  it('is the browser found on this machine, CHROMIUM_PATH first', () => {
    const dir = mkdtempSync(join(tmpdir(), 'portico-browser-'))
    try {
      const chrome = join(dir, 'chrome')
      writeFileSync(chrome, '')
      chmodSync(chrome, 0o755)
      vi.stubEnv('CHROMIUM_PATH', chrome)
      expect(browserPath()).toBe(chrome)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('throws the set-up step\'s message when there is none', () => {
    vi.stubEnv('CHROMIUM_PATH', '/nowhere/chrome')
    expect(() => browserPath()).toThrow('npm test needs a Chromium or Chrome for its browser tests. CHROMIUM_PATH is set to /nowhere/chrome')
  })
})
