/**
 * Multi-factor verification (issue 16; spec part 2 sections 4, 5, 7 and 9):
 *
 *   /mfa/totp/{init,enroll,verify,unenroll}
 *   /mfa/passwordless_sms/{init {action},enroll,verify,unenroll}
 *   /mfa/passkeys/{init {} → options,enroll,verify,unenroll}
 *
 * - TOTP secrets are sealed at rest with a key derived from PORTICO_SECRET (`ctx.keys.seal`,
 *   JWE dir + A256GCM), codes checked with `otpauth` (SHA-1, 6 digits, 30 s, ±1 step); the
 *   accepted time step is stored and a code of that step or an earlier one is refused (a
 *   replayed code fails, also when two requests race: compare-and-set on `last_step`).
 * - SMS codes go through the one-time-code store and the delivery path (dev outbox) of SMS
 *   login, under their own identifiers (`mfa-enroll:<user>:<number>`, `mfa:<user>`), so an MFA
 *   code can never log anyone in.
 * - Passkeys: the user's linked passkeys (at most 5) marked `enrolled_in_mfa`; the passkey
 *   unlink route refuses those.
 * - Attempts are counted per user on the server in ONE atomic upsert before a code is
 *   checked: at most MFA_MAX_ATTEMPTS in MFA_ATTEMPT_WINDOW_S (the window opens at the first
 *   attempt) and MFA_DAILY_ATTEMPTS a day; parallel requests cannot exceed it.
 * - A successful verification marks the session verified; the gate (`../mfa-gate.ts`)
 *   accepts it for MFA_FRESH_S. Adding or removing a method needs that too when the user
 *   already has one.
 */
import type { AuthenticationResponseJSON, AuthenticatorTransport } from '@simplewebauthn/server'
import * as OTPAuth from 'otpauth'
import { z } from 'zod'
import { checkCode, issueCode } from '../codes'
import { clientIp, requireAuth, type Api, type Auth, type C, type ServerCtx } from '../context'
import { codeDelivery } from '../delivery'
import { ApiError, errors } from '../errors'
import { loadUser, userResponse } from '../identity'
import type { AppSettings } from '../config'
import type { Queryable } from '../store'
import { now } from '../tokens'
import { id, optId } from '../validate'
import { normalisePhone } from './passwordless-sms'
import { MAX_PASSKEYS, relyingParty } from './passkeys'
import { CHALLENGE_TTL_S, advanceCounter, authenticationOptions, authenticationResponse, loadCredential, verifyAssertion } from '../webauthn'

export type MfaType = 'totp' | 'sms' | 'passkey'
export const MFA_TYPES: readonly MfaType[] = ['totp', 'sms', 'passkey']

/** Spec part 2 section 9: 4 attempts. */
export const MFA_MAX_ATTEMPTS = 4
/** The attempts window (the client's blocking text says to try again in 10 seconds). */
export const MFA_ATTEMPT_WINDOW_S = 10
/** Attempts per user per day, whatever the windows (bounds guessing at 40 a day). */
export const MFA_DAILY_ATTEMPTS = 40
/** How long a verification counts for the gate and for method changes (5 minutes). */
export const MFA_FRESH_S = 300
/** An enrolment waiting for its first code expires after 10 minutes. */
export const MFA_PENDING_TTL_S = 600
export const TOTP_PERIOD_S = 30
/** TOTP steps accepted either side of now (clock drift). */
export const TOTP_WINDOW = 1

export const MFA_MSG = {
  invalidCode: 'Invalid MFA code',
  /** A TOTP code of a time step already accepted (replayed, or typed again within its 30 s). */
  codeUsed: 'This code has already been used. Wait for a new code.',
  missing: 'Missing or invalid MFA',
  maxAttempts: 'Max MFA verification attempts reached',
  verificationRequired: 'To add or delete verification methods, verification is required.',
  unsupported: 'Unsupported MFA method',
  notEnrolled: 'This verification method is not enrolled.',
  noPending: 'Start the enrolment again: it has expired or was never started.',
  smsAuthUser: 'SMS verification is not available to a user who logs in with SMS.',
  notYourPasskey: 'Every credential id must be one of your passkeys.',
} as const

export const mfaErrors = {
  missing: (msg: string = MFA_MSG.missing) => new ApiError(403, 'missing_or_invalid_mfa', msg),
  invalidCode: () => new ApiError(403, 'missing_or_invalid_mfa', MFA_MSG.invalidCode),
  /** Same code as an invalid one (clients count it as an attempt), with the reason the client shows. */
  codeUsed: () => new ApiError(403, 'missing_or_invalid_mfa', MFA_MSG.codeUsed, { reason: 'code_already_used' }),
  maxAttempts: () => new ApiError(429, 'mfa_verification_max_attempts_reached', MFA_MSG.maxAttempts),
  unsupported: () => new ApiError(400, 'unsupported_mfa_method', MFA_MSG.unsupported),
  notEnrolled: () => errors.invalidData(MFA_MSG.notEnrolled),
}

// ------------------------------------------------------------ shared state

/** The methods a user has enrolled (type and verified_at, seconds). */
export async function mfaMethodsOf(q: Queryable, userId: string): Promise<{ type: MfaType; verified_at: number }[]> {
  const rows = await q.query<{ type: MfaType; verified_at: number }>(
    'SELECT type, verified_at FROM mfa_methods WHERE user_id = $1 ORDER BY verified_at, type',
    [userId],
  )
  return rows.map((r) => ({ type: r.type, verified_at: Number(r.verified_at) }))
}

/** Whether the user has a method and whether this session verified within MFA_FRESH_S. */
export async function mfaState(q: Queryable, auth: Auth): Promise<{ enrolled: boolean; fresh: boolean }> {
  const [r] = await q.query<{ enrolled: boolean; fresh: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM mfa_methods WHERE user_id = $1) AS enrolled,
            EXISTS (SELECT 1 FROM mfa_verifications WHERE session_id = $2 AND user_id = $1 AND verified_at > $3) AS fresh`,
    [auth.userId, auth.sessionId, now() - MFA_FRESH_S],
  )
  return { enrolled: !!r?.enrolled, fresh: !!r?.fresh }
}

async function markVerified(q: Queryable, auth: Auth, method: MfaType) {
  await q.query(
    `INSERT INTO mfa_verifications (session_id, user_id, method, verified_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (session_id) DO UPDATE SET method = $3, verified_at = $4, user_id = $2`,
    [auth.sessionId, auth.userId, method, now()],
  )
}

/**
 * Counts one attempt before any code is checked, in one atomic upsert (the row lock orders
 * racing requests): refused with 429 mfa_verification_max_attempts_reached beyond
 * MFA_MAX_ATTEMPTS in the window or MFA_DAILY_ATTEMPTS in the day. Committed on its own, so a
 * wrong code stays counted.
 */
export async function countAttempt(q: Queryable, userId: string): Promise<void> {
  const t = now()
  const [r] = await q.query<{ count: number; day_count: number }>(
    `INSERT INTO mfa_attempts (user_id, window_start, count, day_start, day_count) VALUES ($1, $2, 1, $2, 1)
     ON CONFLICT (user_id) DO UPDATE SET
       count = CASE WHEN mfa_attempts.window_start > $2 - $3 THEN mfa_attempts.count + 1 ELSE 1 END,
       window_start = CASE WHEN mfa_attempts.window_start > $2 - $3 THEN mfa_attempts.window_start ELSE $2 END,
       day_count = CASE WHEN mfa_attempts.day_start > $2 - 86400 THEN mfa_attempts.day_count + 1 ELSE 1 END,
       day_start = CASE WHEN mfa_attempts.day_start > $2 - 86400 THEN mfa_attempts.day_start ELSE $2 END
     RETURNING count, day_count`,
    [userId, t, MFA_ATTEMPT_WINDOW_S],
  )
  if (Number(r.count) > MFA_MAX_ATTEMPTS || Number(r.day_count) > MFA_DAILY_ATTEMPTS) throw mfaErrors.maxAttempts()
}

/** Methods this app allows (`mfa.methods` in apps.json; default all three). */
function allowedTypes(app: AppSettings): MfaType[] {
  const m = (app as { mfa?: { methods?: unknown } }).mfa?.methods
  return Array.isArray(m) ? MFA_TYPES.filter((t) => m.includes(t)) : [...MFA_TYPES]
}

// ------------------------------------------------------------ TOTP

export function totpOf(secretBase32: string, issuer = 'Portico', label = 'user') {
  return new OTPAuth.TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_S, secret: OTPAuth.Secret.fromBase32(secretBase32) })
}

/** The time step `code` belongs to (within ±TOTP_WINDOW of `at`), or null when it is wrong. */
export function totpStep(secretBase32: string, code: string, at = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null
  const delta = totpOf(secretBase32).validate({ token: code, timestamp: at, window: TOTP_WINDOW })
  if (delta === null) return null
  return OTPAuth.TOTP.counter({ period: TOTP_PERIOD_S, timestamp: at }) + delta
}

const SEAL_PURPOSE = 'mfa-totp-secret'

// ------------------------------------------------------------ routes

const code = id(32)

export function registerMfa(api: Api, ctx: ServerCtx) {
  const r = ctx.routes

  const allowed = (c: C, type: MfaType) => {
    if (!allowedTypes(c.get('app')).includes(type)) throw mfaErrors.unsupported()
  }
  /** Adding or removing a method: a fresh verification when the user already has one. */
  const changeAllowed = async (auth: Auth) => {
    const s = await mfaState(ctx.store, auth)
    if (s.enrolled && !s.fresh) throw mfaErrors.missing(MFA_MSG.verificationRequired)
  }
  const done = async (c: C, userId: string) => c.json(await userResponse(ctx, c.get('app').id, (await loadUser(ctx.store, userId))!))
  const normaliseCode = (raw: string) => raw.replace(/\s+/g, '')
  const unenroll = async (c: C, type: MfaType, extra?: (q: Queryable, auth: Auth) => Promise<void>) => {
    const auth = await requireAuth(c, ctx)
    await changeAllowed(auth)
    await ctx.store.transaction(async (q) => {
      const gone = await q.query('DELETE FROM mfa_methods WHERE user_id = $1 AND type = $2 RETURNING type', [auth.userId, type])
      if (!gone.length) throw mfaErrors.notEnrolled()
      await extra?.(q, auth)
    })
    return done(c, auth.userId)
  }

  // ---------------------------------------------------------- TOTP

  r.post(api, '/mfa/totp/init', { summary: 'MFA: start authenticator-app enrolment (auth_url, secret)', auth: 'bearer' }, z.object({}), async (c) => {
    const auth = await requireAuth(c, ctx)
    allowed(c, 'totp')
    await changeAllowed(auth)
    const app = c.get('app')
    const user = await loadUser(ctx.store, auth.userId)
    const email = user?.linked_accounts.find((a) => a.type === 'email') as { address?: string } | undefined
    const secret = new OTPAuth.Secret({ size: 20 }).base32
    const t = now()
    await ctx.store.query(
      `INSERT INTO mfa_pending (user_id, type, data, created_at, expires_at) VALUES ($1, 'totp', $2, $3, $4)
       ON CONFLICT (user_id, type) DO UPDATE SET data = $2, created_at = $3, expires_at = $4`,
      [auth.userId, JSON.stringify({ secret: await ctx.keys.seal(secret, SEAL_PURPOSE) }), t, t + MFA_PENDING_TTL_S],
    )
    return c.json({ auth_url: totpOf(secret, app.name, email?.address ?? app.name).toString(), secret })
  })

  r.post(api, '/mfa/totp/enroll', { summary: 'MFA: finish authenticator-app enrolment with a code', auth: 'bearer' }, z.object({ code }), async (c, b) => {
    const auth = await requireAuth(c, ctx)
    allowed(c, 'totp')
    await changeAllowed(auth)
    const rows = await ctx.store.query<{ data: { secret: string } }>(
      `SELECT data FROM mfa_pending WHERE user_id = $1 AND type = 'totp' AND expires_at > $2`,
      [auth.userId, now()],
    )
    if (!rows.length) throw errors.invalidData(MFA_MSG.noPending)
    await countAttempt(ctx.store, auth.userId)
    const sealed = rows[0].data.secret
    const step = totpStep(await ctx.keys.open(sealed, SEAL_PURPOSE), normaliseCode(b.code))
    if (step === null) throw mfaErrors.invalidCode()
    await ctx.store.transaction(async (q) => {
      // The pending row is consumed with the write: two racing enrolments, one wins.
      const taken = await q.query(`DELETE FROM mfa_pending WHERE user_id = $1 AND type = 'totp' AND data->>'secret' = $2 RETURNING user_id`, [auth.userId, sealed])
      if (!taken.length) throw errors.invalidData(MFA_MSG.noPending)
      await q.query(
        `INSERT INTO mfa_methods (user_id, type, data, last_step, verified_at) VALUES ($1, 'totp', $2, $3, $4)
         ON CONFLICT (user_id, type) DO UPDATE SET data = $2, last_step = $3, verified_at = $4`,
        [auth.userId, JSON.stringify({ secret: sealed }), step, now()],
      )
      await markVerified(q, auth, 'totp')
    })
    return done(c, auth.userId)
  })

  r.post(api, '/mfa/totp/verify', { summary: 'MFA: verify with an authenticator-app code', auth: 'bearer' }, z.object({ code }), async (c, b) => {
    const auth = await requireAuth(c, ctx)
    const rows = await ctx.store.query<{ data: { secret: string } }>(`SELECT data FROM mfa_methods WHERE user_id = $1 AND type = 'totp'`, [auth.userId])
    if (!rows.length) throw mfaErrors.notEnrolled()
    await countAttempt(ctx.store, auth.userId)
    const step = totpStep(await ctx.keys.open(rows[0].data.secret, SEAL_PURPOSE), normaliseCode(b.code))
    if (step === null) throw mfaErrors.invalidCode()
    await ctx.store.transaction(async (q) => {
      // Compare-and-set: a step already used (a replayed code, a racing copy) is refused.
      const ok = await q.query(
        `UPDATE mfa_methods SET last_step = $2 WHERE user_id = $1 AND type = 'totp' AND (last_step IS NULL OR last_step < $2) RETURNING type`,
        [auth.userId, step],
      )
      if (!ok.length) throw mfaErrors.codeUsed()
      await markVerified(q, auth, 'totp')
    })
    return c.json({ success: true })
  })

  r.post(api, '/mfa/totp/unenroll', { summary: 'MFA: remove the authenticator app', auth: 'bearer' }, z.object({}), (c) => unenroll(c, 'totp'))

  // ---------------------------------------------------------- SMS

  const requester = (c: C) => clientIp(c, ctx.trustProxy)
  const smsNumber = async (userId: string) => {
    const rows = await ctx.store.query<{ data: { number: string } }>(`SELECT data FROM mfa_methods WHERE user_id = $1 AND type = 'sms'`, [userId])
    if (!rows.length) throw mfaErrors.notEnrolled()
    return rows[0].data.number
  }
  const send = (c: C, identifier: string, to: string) => {
    const app = c.get('app')
    return issueCode(ctx.store, ctx.limits, ctx.keys, { appId: app.id, channel: 'sms', identifier, requester: requester(c) }, codeDelivery(ctx.delivery, { appId: app.id, appName: app.name, channel: 'sms', to }),
    )
  }
  const check = (c: C, q: Queryable, identifier: string, code: string) =>
    checkCode(q, ctx.limits, ctx.keys, { appId: c.get('app').id, channel: 'sms', identifier, requester: requester(c), code })

  r.post(
    api,
    '/mfa/passwordless_sms/init',
    { summary: "MFA: send an SMS code (action 'enroll' with phoneNumber, or 'verify')", auth: 'bearer' },
    z.object({ action: z.enum(['enroll', 'verify'], { message: "Expected 'enroll' or 'verify'" }), phoneNumber: optId(64) }),
    async (c, b) => {
      const auth = await requireAuth(c, ctx)
      allowed(c, 'sms')
      if (b.action === 'verify') {
        await send(c, `mfa:${auth.userId}`, await smsNumber(auth.userId))
        return c.json({ success: true })
      }
      if (!b.phoneNumber) throw errors.invalidData('phoneNumber: Required', { fields: { phoneNumber: 'Required' } }, 422)
      const number = normalisePhone(b.phoneNumber)
      await changeAllowed(auth)
      await refuseSmsAuthUser(auth.userId)
      await send(c, `mfa-enroll:${auth.userId}:${number}`, number)
      return c.json({ success: true })
    },
  )
  const refuseSmsAuthUser = async (userId: string) => {
    const rows = await ctx.store.query(`SELECT 1 FROM accounts WHERE user_id = $1 AND type = 'phone'`, [userId])
    if (rows.length) throw errors.invalidData(MFA_MSG.smsAuthUser)
  }

  r.post(
    api,
    '/mfa/passwordless_sms/enroll',
    { summary: 'MFA: finish SMS enrolment with the code sent to phoneNumber', auth: 'bearer' },
    z.object({ phoneNumber: id(64), code }),
    async (c, b) => {
      const auth = await requireAuth(c, ctx)
      allowed(c, 'sms')
      const number = normalisePhone(b.phoneNumber)
      await changeAllowed(auth)
      await refuseSmsAuthUser(auth.userId)
      await countAttempt(ctx.store, auth.userId)
      const ok = await ctx.store.transaction(async (q) => {
        if (!(await check(c, q, `mfa-enroll:${auth.userId}:${number}`, b.code))) return false
        await q.query(
          `INSERT INTO mfa_methods (user_id, type, data, verified_at) VALUES ($1, 'sms', $2, $3)
           ON CONFLICT (user_id, type) DO UPDATE SET data = $2, verified_at = $3`,
          [auth.userId, JSON.stringify({ number }), now()],
        )
        await markVerified(q, auth, 'sms')
        return true
      })
      if (!ok) throw mfaErrors.invalidCode()
      return done(c, auth.userId)
    },
  )

  r.post(api, '/mfa/passwordless_sms/verify', { summary: 'MFA: verify with an SMS code', auth: 'bearer' }, z.object({ code }), async (c, b) => {
    const auth = await requireAuth(c, ctx)
    await smsNumber(auth.userId)
    await countAttempt(ctx.store, auth.userId)
    const ok = await ctx.store.transaction(async (q) => {
      if (!(await check(c, q, `mfa:${auth.userId}`, b.code))) return false
      await markVerified(q, auth, 'sms')
      return true
    })
    if (!ok) throw mfaErrors.invalidCode()
    return c.json({ success: true })
  })

  r.post(api, '/mfa/passwordless_sms/unenroll', { summary: 'MFA: remove SMS verification', auth: 'bearer' }, z.object({}), (c) => unenroll(c, 'sms'))

  // ---------------------------------------------------------- passkeys

  const enrolledPasskeys = (q: Queryable, userId: string) =>
    q.query<{ identifier: string; transports: AuthenticatorTransport[] | null }>(
      `SELECT a.identifier, p.transports FROM accounts a LEFT JOIN passkey_credentials p
       ON p.app_id = a.app_id AND p.credential_id = a.identifier
       WHERE a.user_id = $1 AND a.type = 'passkey' AND a.data->>'enrolled_in_mfa' = 'true' ORDER BY a.id`,
      [userId],
    )

  r.post(
    api,
    '/mfa/passkeys/init',
    { summary: 'MFA: request options for the enrolled passkeys', auth: 'bearer' },
    z.object({ relying_party: optId(253) }),
    async (c, b) => {
      const auth = await requireAuth(c, ctx)
      const app = c.get('app')
      const rp = relyingParty(app, b.relying_party)
      const mine = await enrolledPasskeys(ctx.store, auth.userId)
      if (!mine.length) throw mfaErrors.notEnrolled()
      const options = await authenticationOptions(rp.rpId, mine)
      const t = now()
      await ctx.store.query(
        'INSERT INTO nonces (nonce, app_id, kind, subject, data, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [options.challenge, app.id, 'mfa_passkey', auth.userId, JSON.stringify({ rp_id: rp.rpId }), t, t + CHALLENGE_TTL_S],
      )
      return c.json({ relying_party: rp.rpId, options })
    },
  )

  r.post(
    api,
    '/mfa/passkeys/verify',
    { summary: 'MFA: verify with an enrolled passkey', auth: 'bearer' },
    z.object({ relying_party: optId(253), challenge: id(128), authenticator_response: authenticationResponse }),
    async (c, b) => {
      const auth = await requireAuth(c, ctx)
      const app = c.get('app')
      const rp = relyingParty(app, b.relying_party)
      const live = await ctx.store.query<{ data: { rp_id: string } }>(
        `SELECT data FROM nonces WHERE nonce = $1 AND app_id = $2 AND kind = 'mfa_passkey' AND subject = $3 AND used_at IS NULL AND expires_at > $4`,
        [b.challenge, app.id, auth.userId, now()],
      )
      if (!live.length || live[0].data?.rp_id !== rp.rpId) throw mfaErrors.invalidCode()
      await countAttempt(ctx.store, auth.userId)
      const resp = b.authenticator_response as unknown as AuthenticationResponseJSON
      if (!(await enrolledPasskeys(ctx.store, auth.userId)).some((p) => p.identifier === resp.id)) throw mfaErrors.invalidCode()
      const cred = await loadCredential(ctx.store, app.id, resp.id)
      if (!cred) throw mfaErrors.invalidCode()
      const newCounter = await verifyAssertion(resp, b.challenge, rp, cred)
      if (newCounter === null) throw mfaErrors.invalidCode()
      await ctx.store.transaction(async (q) => {
        const used = await q.query(
          `UPDATE nonces SET used_at = $4 WHERE nonce = $1 AND app_id = $2 AND kind = 'mfa_passkey' AND subject = $3 AND used_at IS NULL AND expires_at > $4 RETURNING nonce`,
          [b.challenge, app.id, auth.userId, now()],
        )
        if (used.length !== 1) throw mfaErrors.invalidCode()
        if (!(await advanceCounter(q, app.id, resp.id, newCounter))) throw mfaErrors.invalidCode()
        await markVerified(q, auth, 'passkey')
      })
      return c.json({ success: true })
    },
  )

  r.post(
    api,
    '/mfa/passkeys/enroll',
    { summary: 'MFA: enrol the given passkeys (all the user’s passkey credential ids)', auth: 'bearer' },
    z.object({ credential_ids: z.array(id(1366)).min(1, 'Required').max(MAX_PASSKEYS, `At most ${MAX_PASSKEYS}`) }),
    async (c, b) => {
      const auth = await requireAuth(c, ctx)
      allowed(c, 'passkey')
      await changeAllowed(auth)
      await ctx.store.transaction(async (q) => {
        await q.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [auth.userId])
        const mine = await q.query<{ identifier: string }>(`SELECT identifier FROM accounts WHERE user_id = $1 AND type = 'passkey'`, [auth.userId])
        const ids = new Set(mine.map((m) => m.identifier))
        if (!b.credential_ids.every((x) => ids.has(x))) throw errors.invalidData(MFA_MSG.notYourPasskey)
        await q.query(
          `UPDATE accounts SET data = jsonb_set(data, '{enrolled_in_mfa}', to_jsonb(identifier = ANY($2::text[])))
           WHERE user_id = $1 AND type = 'passkey'`,
          [auth.userId, b.credential_ids],
        )
        await q.query(
          `INSERT INTO mfa_methods (user_id, type, data, verified_at) VALUES ($1, 'passkey', '{}', $2)
           ON CONFLICT (user_id, type) DO UPDATE SET verified_at = $2`,
          [auth.userId, now()],
        )
      })
      return done(c, auth.userId)
    },
  )

  r.post(api, '/mfa/passkeys/unenroll', { summary: 'MFA: stop using passkeys for verification', auth: 'bearer' }, z.object({}), (c) =>
    unenroll(c, 'passkey', async (q, auth) => {
      await q.query(
        `UPDATE accounts SET data = jsonb_set(data, '{enrolled_in_mfa}', 'false'::jsonb) WHERE user_id = $1 AND type = 'passkey'`,
        [auth.userId],
      )
    }),
  )
}
