// Types of scripts/test-env.mjs (plain JavaScript: `npm test` runs it with node before vitest).
export interface Probe {
  platform: NodeJS.Platform
  env: Record<string, string | undefined>
  isRoot: boolean
  isExecutable(path: string): boolean
  readdir(path: string): string[]
  readFile(path: string): string | null
}
export type BrowserFound = { path: string; source: string } | { path: null; reason: string; explicit: boolean }
export type PostgresFound = { bin: string } | { bin: null; reason: string }
export interface SetupPlan {
  /** apt packages to install first (Debian as root only). */
  install: string[]
  /** The message to stop with, or null. */
  stop: string | null
  /** What the run uses, one line each (browser; PostgreSQL suites running or skipped and why). */
  lines: string[]
  browser: BrowserFound
  postgres: PostgresFound
}
export function machineProbe(env?: Record<string, string | undefined>): Probe
export function browserPlaces(probe: Probe): string[]
export function findBrowser(probe: Probe): BrowserFound
export function postgresDirs(probe: Probe): string[]
export function findPostgres(probe: Probe): PostgresFound
export function isDebian(probe: Probe): boolean
export function isCI(env: Record<string, string | undefined>): boolean
export const APT_PACKAGES: { browser: string; postgres: string }
export function installCommand(probe: Probe, packages: string[]): string
export function planSetup(probe: Probe, options?: { canInstall?: boolean }): SetupPlan
export function browserPath(): string
