/**
 * Who may call the admin API (`requireAdmin(scope)`, declared by each admin route):
 *
 * - an API key `portico_admin_…` (random, only its SHA-256 stored, shown once, revocable)
 *   with its scopes; or the bootstrap key PORTICO_ADMIN_API_KEY (hashed at start, every key
 *   scope);
 * - an operator: the bearer access token of a user of the console app
 *   (portico-console-app-00001) whose verified e-mail is in the operators table, with its role
 *   (owner: everything; admin: every scope but the operators'; viewer: the read scopes).
 *
 * A user token of any other app is no admin credential (its audience is that app).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { C, ServerCtx } from '../../core/context'
import { bearer } from '../../core/auth'
import { now, verifyAccessToken } from '../../core/identity/tokens'
import { sessionAlive } from '../../core/identity/sessions'
import { CONSOLE_APP_ID, sha256hex } from './apps'
import { ADMIN_MSG, adminErrors } from './errors'
import * as repo from './repo'

/** Scopes an API key may hold. */
export const KEY_SCOPES = ['apps:read', 'apps:write', 'users:read', 'users:write', 'keys:read', 'keys:write'] as const
export type KeyScope = (typeof KEY_SCOPES)[number]
/** What a route requires: a key scope, or 'operators' (the owner only). */
export type Scope = KeyScope | 'operators'
export type Role = 'owner' | 'admin' | 'viewer'

const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  owner: [...KEY_SCOPES, 'operators'],
  admin: KEY_SCOPES,
  viewer: ['apps:read', 'users:read', 'keys:read'],
}

export interface Admin {
  /** For the audit: 'env-key', 'key:<id>' or 'operator:<e-mail>'. */
  actor: string
  scopes: readonly Scope[]
  role: Role | null
}

export const KEY_PREFIX = 'portico_admin_'

/** A new API key: the key (shown once) and its hash (stored). */
export function newApiKey(): { key: string; hash: string; id: string } {
  const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`
  return { key, hash: sha256hex(key), id: `key_${randomBytes(9).toString('base64url')}` }
}

export function adminAuth(ctx: ServerCtx, opts: { envKey?: string }) {
  const envHash = opts.envKey ? Buffer.from(sha256hex(opts.envKey), 'hex') : null

  async function caller(c: C): Promise<Admin> {
    const token = bearer(c)
    if (!token || token.length > 4096) throw adminErrors.unauthenticated()
    const hash = sha256hex(token)
    if (envHash && timingSafeEqual(Buffer.from(hash, 'hex'), envHash)) return { actor: 'env-key', scopes: KEY_SCOPES, role: null }
    if (token.startsWith(KEY_PREFIX)) {
      const key = await repo.useKey(ctx.store, hash, now())
      if (!key) throw adminErrors.unauthenticated()
      return { actor: `key:${key.id}`, scopes: key.scopes.filter((s): s is KeyScope => (KEY_SCOPES as readonly string[]).includes(s)), role: null }
    }
    // An operator: a live session of the console app.
    const claims = await verifyAccessToken(ctx.signer, token, CONSOLE_APP_ID)
    if (!claims || !(await sessionAlive(ctx.store, claims.sid, claims.sub))) throw adminErrors.unauthenticated()
    const op = await repo.operatorOfUser(ctx.store, claims.sub, CONSOLE_APP_ID)
    if (!op) throw adminErrors.forbidden(ADMIN_MSG.notOperator)
    return { actor: `operator:${op.email}`, scopes: ROLE_SCOPES[op.role], role: op.role }
  }

  /** The declared check of an admin route: the caller, who must hold `scope`. */
  return function requireAdmin(scope: Scope) {
    return async (c: C): Promise<Admin> => {
      const a = await caller(c)
      if (!a.scopes.includes(scope)) throw adminErrors.forbidden(scope === 'operators' ? ADMIN_MSG.ownerOnly : ADMIN_MSG.scope(scope), { required_scope: scope })
      return a
    }
  }
}
