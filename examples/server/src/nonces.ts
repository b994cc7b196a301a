import { randomBytes } from 'node:crypto'
import type { WireNonceResponse } from './wire'
import { hitLimit, type Limits } from './codes'
import { errors } from './core/errors'
import type { Store } from './core/store'
import { now } from './core/identity/tokens'
import { insertSignInNonce, useSignInNonce } from './core/repo'

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
  await insertSignInNonce(store, { ...p, nonce, t, expiresAt: t + NONCE_TTL_S })
  return { nonce, expires_at: t + NONCE_TTL_S }
}

/** Marks the nonce used; false when unknown, for another address, used or expired. */
export async function consumeNonce(
  store: Store,
  p: { appId: string; kind: 'siwe' | 'siws'; subject: string; nonce: string },
): Promise<boolean> {
  return useSignInNonce(store, p, now())
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
