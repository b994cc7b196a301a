import { randomBytes } from 'node:crypto'
import type { WireNonceResponse } from './wire'
import { hitLimit, type Limits } from './codes'
import { errors } from './core/errors'
import type { Store } from './core/store'
import { now } from './core/identity/tokens'

export const NONCE_TTL_S = 600

/** Issues a single-use sign-in nonce for an address (alphanumeric, as EIP-4361 requires). */
export async function issueNonce(
  store: Store,
  limits: Limits,
  p: { appId: string; kind: 'siwe' | 'siws'; subject: string; ip: string },
): Promise<WireNonceResponse> {
  if (!(await hitLimit(store, `nonce-ip:${p.ip}`, limits.perIp * 4, limits.windowS))) throw errors.tooMany()
  const nonce = randomBytes(16).toString('hex')
  const t = now()
  await store.query(
    'INSERT INTO nonces (nonce, app_id, kind, subject, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
    [nonce, p.appId, p.kind, p.subject, t, t + NONCE_TTL_S],
  )
  if (Math.random() < 0.01) await store.query('DELETE FROM nonces WHERE expires_at < $1', [t - 86400])
  return { nonce, expires_at: t + NONCE_TTL_S }
}

/** Marks the nonce used; false when unknown, for another address, used or expired. */
export async function consumeNonce(
  store: Store,
  p: { appId: string; kind: 'siwe' | 'siws'; subject: string; nonce: string },
): Promise<boolean> {
  const rows = await store.query(
    `UPDATE nonces SET used_at = $5 WHERE nonce = $1 AND app_id = $2 AND kind = $3 AND subject = $4
     AND used_at IS NULL AND expires_at > $5 RETURNING nonce`,
    [p.nonce, p.appId, p.kind, p.subject, now()],
  )
  return rows.length === 1
}

/** Hosts (host[:port]) a sign-in message's domain may name: the app's allowed origins. */
export function allowedHosts(origins: string[]): string[] {
  return origins.flatMap((o) => {
    try {
      return [new URL(o).host]
    } catch {
      return []
    }
  })
}

/** The sign-in message's URI must be (under) one of the app's allowed origins. */
export function checkUri(uri: string | undefined, origins: string[], kind: string) {
  let origin: string | undefined
  try {
    origin = uri ? new URL(uri).origin : undefined
  } catch {}
  if (!origin || !origins.includes(origin)) throw errors.invalidCredentials(`${kind} message URI is not allowed for this app`)
}

/** Issued At: present, not in the future (a minute of clock skew), not older than a nonce lives. */
export function checkIssuedAt(issuedAt: Date | undefined, kind: string) {
  const t = issuedAt?.getTime()
  const n = Date.now()
  if (t === undefined || Number.isNaN(t) || t > n + 60_000 || t < n - NONCE_TTL_S * 1000) {
    throw errors.invalidCredentials(`${kind} message Issued At is missing, in the future or too old`)
  }
}
