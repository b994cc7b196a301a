/**
 * Keys at rest (issue 26): the server secret (PORTICO_SECRET: auth shares, signing key, TOTP
 * secrets, refresh pairs) and the recovery key (PORTICO_RECOVERY_KEY or _FILE: automatic
 * `privy` recovery shares and the password OPRF keys) are two keys, both outside the database.
 * Production refuses to start without a recovery key, or with one equal to or derived from the
 * server secret. Previous keys (comma-separated PORTICO_SECRET_PREVIOUS,
 * PORTICO_RECOVERY_KEY_PREVIOUS) open what they sealed until `rotate-keys` re-wraps it.
 */
import { readFileSync } from 'node:fs'
import { derivedRecoveryKey } from './features/wallets/keys'
import { ConfigError, RECOVERY_KEY_REQUIRED } from './settings'

export const KEY_TEXTS = {
  recoveryRequired: RECOVERY_KEY_REQUIRED,
  recoveryIsSecret:
    'PORTICO_RECOVERY_KEY: must not be PORTICO_SECRET nor derived from it (whoever holds the server secret would hold the recovery shares too): generate its own key (e.g. openssl rand -base64 32)',
  recoveryTooShort: 'PORTICO_RECOVERY_KEY: must be at least 32 characters',
} as const

/** Comma-separated previous keys (empty entries dropped). */
export const previousKeys = (v: string | undefined): string[] =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)

export interface RecoveryKeyChoice {
  key: string | undefined
  source: 'env' | 'file' | 'derived'
  previous: string[]
}

/** The recovery key from the environment (the file is read here); undefined when neither is set. */
export function recoveryKeyChoice(env: { PORTICO_RECOVERY_KEY?: string; PORTICO_RECOVERY_KEY_FILE?: string; PORTICO_RECOVERY_KEY_PREVIOUS?: string }): RecoveryKeyChoice {
  const previous = previousKeys(env.PORTICO_RECOVERY_KEY_PREVIOUS)
  if (env.PORTICO_RECOVERY_KEY) return { key: env.PORTICO_RECOVERY_KEY, source: 'env', previous }
  if (env.PORTICO_RECOVERY_KEY_FILE) return { key: readFileSync(env.PORTICO_RECOVERY_KEY_FILE, 'utf8').trim(), source: 'file', previous }
  return { key: undefined, source: 'derived', previous }
}

/**
 * The problems of a recovery key in production (none in development, where a missing key is
 * derived from the secret). Equal to the secret, to a previous secret, or to the key the
 * server would derive from either, is refused.
 */
export function recoveryKeyProblems(p: { dev: boolean; recoveryKey: string | undefined; secret: string | undefined; secretPrevious?: string[] }): string[] {
  if (p.dev) return []
  if (!p.recoveryKey) return [KEY_TEXTS.recoveryRequired]
  if (p.recoveryKey.length < 32) return [KEY_TEXTS.recoveryTooShort]
  const secrets = [p.secret, ...(p.secretPrevious ?? [])].filter((s): s is string => !!s)
  if (secrets.some((s) => s === p.recoveryKey || derivedRecoveryKey(s) === p.recoveryKey)) return [KEY_TEXTS.recoveryIsSecret]
  return []
}

export function assertRecoveryKey(p: Parameters<typeof recoveryKeyProblems>[0]): void {
  const problems = recoveryKeyProblems(p)
  if (problems.length) throw new ConfigError(problems)
}
