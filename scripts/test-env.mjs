/**
 * What `npm test` needs from the machine, found in one place: a Chromium or Chrome for the
 * browser tests and PostgreSQL's server binaries for the PostgreSQL suites. Used by the set-up
 * step (scripts/test-setup.mjs, first in `npm test`), by the browser-test harness and the bench
 * (the browser's path) and by examples/server/test/helpers.ts (PostgreSQL's binaries).
 *
 * Everything here reads the machine through a `Probe`, so the decisions can be tested with a
 * made-up machine. `PORTICO_PROBE_ROOT=<dir>` makes the real probe look at <dir> as if it were
 * `/` (an empty dir: a machine with nothing installed) — for trying the set-up step itself.
 */
import { accessSync, constants, readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/**
 * @typedef {object} Probe
 * @property {NodeJS.Platform} platform
 * @property {Record<string, string | undefined>} env
 * @property {boolean} isRoot
 * @property {(path: string) => boolean} isExecutable an executable regular file (symlinks followed)
 * @property {(path: string) => string[]} readdir entries of a folder, [] when there is none
 * @property {(path: string) => string | null} readFile a text file, null when there is none
 */

/** The real machine (or the tree under PORTICO_PROBE_ROOT). @returns {Probe} */
export function machineProbe(env = process.env) {
  const root = env.PORTICO_PROBE_ROOT || ''
  const at = (p) => (root ? join(root, p) : p)
  return {
    platform: process.platform,
    env,
    isRoot: process.getuid?.() === 0,
    isExecutable(p) {
      try {
        accessSync(at(p), constants.X_OK)
        return statSync(at(p)).isFile()
      } catch {
        return false
      }
    },
    readdir(p) {
      try {
        return readdirSync(at(p))
      } catch {
        return []
      }
    },
    readFile(p) {
      try {
        return readFileSync(at(p), 'utf8')
      } catch {
        return null
      }
    },
  }
}

const pathDirs = (probe) => (probe.env.PATH ?? '').split(':').filter((d) => d.startsWith('/'))

/** The first of `names` on PATH, or null. */
function onPath(probe, names) {
  for (const dir of pathDirs(probe)) {
    for (const name of names) {
      const p = join(dir, name)
      if (probe.isExecutable(p)) return p
    }
  }
  return null
}

const BROWSER_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome']
const LINUX_BROWSERS = [
  '/usr/bin/chromium', // Debian's chromium
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
  '/snap/bin/chromium',
]
const MAC_APPS = [
  'Google Chrome.app/Contents/MacOS/Google Chrome',
  'Chromium.app/Contents/MacOS/Chromium',
  'Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
  'Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary',
]

/** Where the browser is looked for, in order (for the message when none is found). */
export function browserPlaces(probe) {
  if (probe.platform === 'darwin') return ['CHROMIUM_PATH', '/Applications (Google Chrome, Chromium)', '~/Applications', `${BROWSER_NAMES.join(', ')} on PATH`]
  return ['CHROMIUM_PATH', '/usr/bin/chromium', `${BROWSER_NAMES.join(', ')} on PATH`, ...LINUX_BROWSERS.slice(1)]
}

/**
 * A Chromium or Chrome for playwright-core: CHROMIUM_PATH when set (and only it), else Debian's
 * chromium, a Chromium or Chrome on PATH, then the usual install places of Linux and macOS.
 * @returns {{ path: string, source: string } | { path: null, reason: string, explicit: boolean }}
 */
export function findBrowser(probe) {
  const explicit = probe.env.CHROMIUM_PATH
  if (explicit) {
    if (probe.isExecutable(explicit)) return { path: explicit, source: 'CHROMIUM_PATH' }
    return { path: null, explicit: true, reason: `CHROMIUM_PATH is set to ${explicit}, but there is no executable there.` }
  }
  if (probe.platform === 'darwin') {
    const home = probe.env.HOME
    for (const dir of ['/Applications', ...(home ? [join(home, 'Applications')] : [])]) {
      for (const app of MAC_APPS) {
        const p = join(dir, app)
        if (probe.isExecutable(p)) return { path: p, source: dir }
      }
    }
    const p = onPath(probe, BROWSER_NAMES)
    if (p) return { path: p, source: 'PATH' }
  } else {
    if (probe.isExecutable('/usr/bin/chromium')) return { path: '/usr/bin/chromium', source: "Debian's chromium" }
    const p = onPath(probe, BROWSER_NAMES)
    if (p) return { path: p, source: 'PATH' }
    for (const q of LINUX_BROWSERS) if (probe.isExecutable(q)) return { path: q, source: 'install path' }
  }
  return { path: null, explicit: false, reason: `No Chromium or Chrome found (looked at ${browserPlaces(probe).join(', ')}).` }
}

const byVersionDesc = (a, b) => (Number(b.replace(/\D+/g, '')) || 0) - (Number(a.replace(/\D+/g, '')) || 0)

/** Where PostgreSQL's binaries are looked for, in order. */
export function postgresDirs(probe) {
  const dirs = [...pathDirs(probe)]
  for (const v of probe.readdir('/usr/lib/postgresql').sort(byVersionDesc)) dirs.push(`/usr/lib/postgresql/${v}/bin`) // Debian
  for (const prefix of ['/opt/homebrew/opt', '/usr/local/opt']) {
    for (const v of probe.readdir(prefix).filter((n) => /^postgresql(@\d+)?$/.test(n)).sort(byVersionDesc)) dirs.push(`${prefix}/${v}/bin`)
  }
  dirs.push('/Applications/Postgres.app/Contents/Versions/latest/bin')
  return dirs
}

/**
 * The folder holding PostgreSQL's `initdb` and `postgres` (the suites start a throw-away server
 * of their own), or null.
 * @returns {{ bin: string } | { bin: null, reason: string }}
 */
export function findPostgres(probe) {
  for (const d of postgresDirs(probe)) {
    if (probe.isExecutable(join(d, 'initdb')) && probe.isExecutable(join(d, 'postgres'))) return { bin: d }
  }
  return { bin: null, reason: 'no PostgreSQL server found (initdb and postgres on PATH or in /usr/lib/postgresql/*/bin)' }
}

/** Debian itself (Ubuntu has no `chromium` package), with apt-get. */
export function isDebian(probe) {
  const release = probe.readFile('/etc/os-release') ?? ''
  return /^ID="?debian"?$/m.test(release) && (probe.isExecutable('/usr/bin/apt-get') || !!onPath(probe, ['apt-get']))
}

const truthy = (v) => !!v && v !== '0' && v.toLowerCase() !== 'false'
export const isCI = (env) => truthy(env.CI)

export const APT_PACKAGES = { browser: 'chromium', postgres: 'postgresql' }

/** The command a person runs to install `packages` (apt package names) on this kind of machine. */
export function installCommand(probe, packages) {
  if (isDebian(probe)) return `${probe.isRoot ? '' : 'sudo '}apt-get install -y ${packages.join(' ')}`
  const brew = packages.map((p) => (p === APT_PACKAGES.browser ? 'brew install --cask google-chrome' : 'brew install postgresql@17'))
  if (probe.platform === 'darwin') return brew.join(' && ')
  const names = packages.map((p) => (p === APT_PACKAGES.browser ? 'Chromium or Google Chrome' : 'PostgreSQL (its initdb and postgres)'))
  return `install ${names.join(' and ')} with your package manager`
}

/**
 * What the set-up step does on this machine.
 * @param {Probe} probe
 * @param {{ canInstall?: boolean }} [options] false after an install attempt: decide, do not install again
 * @returns {{ install: string[], stop: string | null, lines: string[], browser: ReturnType<typeof findBrowser>, postgres: ReturnType<typeof findPostgres> }}
 */
export function planSetup(probe, { canInstall = true } = {}) {
  const browser = findBrowser(probe)
  const postgres = findPostgres(probe)
  const ci = isCI(probe.env)
  const missing = []
  if (!browser.path && !browser.explicit) missing.push(APT_PACKAGES.browser)
  if (!postgres.bin) missing.push(APT_PACKAGES.postgres)
  const plan = { install: [], stop: null, lines: [], browser, postgres }

  if (browser.explicit) {
    plan.stop = `npm test needs a Chromium or Chrome for its browser tests. ${browser.reason}\nPoint CHROMIUM_PATH at a Chrome or Chromium executable, or unset it.`
    return plan
  }
  if (missing.length && canInstall && probe.isRoot && isDebian(probe)) {
    plan.install = missing
    return plan
  }
  if (!browser.path) {
    plan.stop =
      `npm test needs a Chromium or Chrome for its browser tests. ${browser.reason}\n` +
      `Install what is missing, then run npm test again:\n  ${installCommand(probe, missing)}\nor set CHROMIUM_PATH to a Chrome or Chromium executable.`
    return plan
  }
  plan.lines.push(`Browser tests: ${browser.path}`)
  if (postgres.bin) {
    plan.lines.push(`PostgreSQL suites: running (${postgres.bin})`)
  } else if (ci) {
    plan.stop = `PostgreSQL suites: required in CI (CI=${probe.env.CI}), but ${postgres.reason}.\nInstall it, then run npm test again:\n  ${installCommand(probe, [APT_PACKAGES.postgres])}`
  } else {
    plan.lines.push(`PostgreSQL suites: skipped: ${postgres.reason}; to run them: ${installCommand(probe, [APT_PACKAGES.postgres])}`)
  }
  return plan
}

/**
 * The browser's path for playwright-core's `executablePath`; throws the set-up step's message
 * when there is none (a spec run on its own, without `npm test`).
 */
export function browserPath() {
  const probe = machineProbe()
  const b = findBrowser(probe)
  if (!b.path) throw new Error(planSetup(probe, { canInstall: false }).stop ?? b.reason)
  return b.path
}
