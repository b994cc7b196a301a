/** Passkeys' queries: stored credentials, their counters, and the challenges of a ceremony. */
import type { AuthenticatorTransport } from '@simplewebauthn/server'
import type { Queryable } from '../../core/store'

export interface StoredCredential {
  public_key: string
  counter: number
  transports: AuthenticatorTransport[] | null
}

/** The stored public key, counter and transports of one of the app's credentials, or null. */
export async function loadCredential(q: Queryable, appId: string, credentialId: string): Promise<StoredCredential | null> {
  const rows = await q.query<StoredCredential>('SELECT public_key, counter, transports FROM passkey_credentials WHERE app_id = $1 AND credential_id = $2', [
    appId,
    credentialId,
  ])
  return rows[0] ?? null
}

/**
 * Compare-and-set of the sign counter inside the writing transaction: false when the counter did
 * not grow (a cloned authenticator, a racing replay). Authenticators that keep no counter send 0.
 */
export async function advanceCounter(q: Queryable, appId: string, credentialId: string, newCounter: number): Promise<boolean> {
  const ok = await q.query(
    `UPDATE passkey_credentials SET counter = $3 WHERE app_id = $1 AND credential_id = $2
     AND (counter < $3 OR (counter = 0 AND $3 = 0)) RETURNING credential_id`,
    [appId, credentialId, newCounter],
  )
  return ok.length === 1
}

/** The credential row of a verified registration; false when the credential is stored already. */
export async function insertCredential(
  q: Queryable,
  c: { appId: string; credentialId: string; publicKey: string; counter: number; transports: string[]; aaguid: string; t: number },
): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO passkey_credentials (app_id, credential_id, public_key, counter, transports, aaguid, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING credential_id`,
    [c.appId, c.credentialId, c.publicKey, c.counter, JSON.stringify(c.transports), c.aaguid, c.t],
  )
  return rows.length === 1
}

/** The user's passkeys with their transports (`mfaOnly`: those enrolled in MFA). */
export async function passkeysOf(q: Queryable, userId: string, mfaOnly = false): Promise<{ identifier: string; transports: AuthenticatorTransport[] | null }[]> {
  return q.query<{ identifier: string; transports: AuthenticatorTransport[] | null }>(
    `SELECT a.identifier, p.transports FROM accounts a LEFT JOIN passkey_credentials p
     ON p.app_id = a.app_id AND p.credential_id = a.identifier WHERE a.user_id = $1 AND a.type = 'passkey'${mfaOnly ? ` AND a.data->>'enrolled_in_mfa' = 'true'` : ''} ORDER BY a.id`,
    [userId],
  )
}

/** A ceremony's challenge: the nonce row of its purpose and subject, for one relying party. */
export interface Challenge {
  value: string
  appId: string
  /** The purpose ('passkey_register', 'passkey_link', 'mfa_passkey' ...): the nonce's kind. */
  purpose: string
  subject: string
}

export async function insertChallenge(q: Queryable, ch: Challenge, rpId: string, t: number, expiresAt: number): Promise<void> {
  await q.query('INSERT INTO nonces (nonce, app_id, kind, subject, data, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
    ch.value,
    ch.appId,
    ch.purpose,
    ch.subject,
    JSON.stringify({ rp_id: rpId }),
    t,
    expiresAt,
  ])
}

/** Whether the challenge is live (not used, not expired) and was issued for this relying party. */
export async function liveChallenge(q: Queryable, ch: Challenge, rpId: string, t: number): Promise<boolean> {
  const rows = await q.query<{ data: { rp_id: string } }>(
    'SELECT data FROM nonces WHERE nonce = $1 AND app_id = $2 AND kind = $3 AND subject = $4 AND used_at IS NULL AND expires_at > $5',
    [ch.value, ch.appId, ch.purpose, ch.subject, t],
  )
  return rows.length > 0 && rows[0].data?.rp_id === rpId
}

/** Uses the challenge (two racing requests: one wins); false when used or expired meanwhile. */
export async function useChallenge(q: Queryable, ch: Challenge, t: number): Promise<boolean> {
  const rows = await q.query(
    `UPDATE nonces SET used_at = $5 WHERE nonce = $1 AND app_id = $2 AND kind = $3 AND subject = $4
     AND used_at IS NULL AND expires_at > $5 RETURNING nonce`,
    [ch.value, ch.appId, ch.purpose, ch.subject, t],
  )
  return rows.length === 1
}
