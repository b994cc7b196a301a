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
 * - A successful verification marks the session verified; the gate (`gate.ts`)
 *   accepts it for MFA_FRESH_S. Adding or removing a method needs that too when the user
 *   already has one.
 */
import type { AuthenticationResponseJSON, AuthenticatorTransport } from '@simplewebauthn/server'
import * as OTPAuth from 'otpauth'
import { z } from 'zod'
import { checkCode, issueCode } from '../../codes'
import { clientIp, type C, type ServerCtx } from '../../core/context'
import { codeDelivery } from '../../delivery'
import { errors } from '../../core/errors'
import { loadUser, userResponse } from '../../core/identity'
import type { Queryable } from '../../core/store'
import { now } from '../../core/identity/tokens'
import { id, optId } from '../../core/validate'
import { normalisePhone } from '../passwordless/sms'
import { MAX_PASSKEYS, relyingParty } from '../passkeys/webauthn'
import { CHALLENGE_TTL_S, advanceCounter, authenticationOptions, authenticationResponse, loadCredential, verifyAssertion } from '../passkeys/webauthn'
import { router } from '../../core/router'
import type { Auth } from '../../core/auth'
import { MFA_ATTEMPT_WINDOW_S, MFA_DAILY_ATTEMPTS, MFA_FRESH_S, MFA_MAX_ATTEMPTS, MFA_PENDING_TTL_S, type MfaType, allowedTypes, countAttempt, markVerified, mfaState, totpOf, totpStep } from './service'
import { MFA_MSG, mfaErrors } from './errors'

// ------------------------------------------------------------ TOTP

const SEAL_PURPOSE = 'mfa-totp-secret'

// ------------------------------------------------------------ routes

const code = id(32)

export function mfaRoutes(ctx: ServerCtx) {
  const r = router(ctx)

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
  const unenroll = async (c: C, auth: Auth, type: MfaType, extra?: (q: Queryable, auth: Auth) => Promise<void>) => {
    await changeAllowed(auth)
    await ctx.store.transaction(async (q) => {
      const gone = await q.query('DELETE FROM mfa_methods WHERE user_id = $1 AND type = $2 RETURNING type', [auth.userId, type])
      if (!gone.length) throw mfaErrors.notEnrolled()
      await extra?.(q, auth)
    })
    return done(c, auth.userId)
  }

  // ---------------------------------------------------------- TOTP

  r.post('/mfa/totp/init', { summary: 'MFA: start authenticator-app enrolment (auth_url, secret)', auth: 'bearer' }, async (c, { auth }) => {
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

  r.post('/mfa/totp/enroll', { summary: 'MFA: finish authenticator-app enrolment with a code', body: z.object({ code }), auth: 'bearer' }, async (c, { body: b, auth }) => {
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

  r.post('/mfa/totp/verify', { summary: 'MFA: verify with an authenticator-app code', body: z.object({ code }), auth: 'bearer' }, async (c, { body: b, auth }) => {
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

  r.post('/mfa/totp/unenroll', { summary: 'MFA: remove the authenticator app', auth: 'bearer' }, (c, { auth }) => unenroll(c, auth, 'totp'))

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

  r.post('/mfa/passwordless_sms/init', { summary: "MFA: send an SMS code (action 'enroll' with phoneNumber, or 'verify')", body: z.object({ action: z.enum(['enroll', 'verify'], { message: "Expected 'enroll' or 'verify'" }), phoneNumber: optId(64) }), auth: 'bearer' }, async (c, { body: b, auth }) => {
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
    })
  const refuseSmsAuthUser = async (userId: string) => {
    const rows = await ctx.store.query(`SELECT 1 FROM accounts WHERE user_id = $1 AND type = 'phone'`, [userId])
    if (rows.length) throw errors.invalidData(MFA_MSG.smsAuthUser)
  }

  r.post('/mfa/passwordless_sms/enroll', { summary: 'MFA: finish SMS enrolment with the code sent to phoneNumber', body: z.object({ phoneNumber: id(64), code }), auth: 'bearer' }, async (c, { body: b, auth }) => {
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
    })

  r.post('/mfa/passwordless_sms/verify', { summary: 'MFA: verify with an SMS code', body: z.object({ code }), auth: 'bearer' }, async (c, { body: b, auth }) => {
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

  r.post('/mfa/passwordless_sms/unenroll', { summary: 'MFA: remove SMS verification', auth: 'bearer' }, (c, { auth }) => unenroll(c, auth, 'sms'))

  // ---------------------------------------------------------- passkeys

  const enrolledPasskeys = (q: Queryable, userId: string) =>
    q.query<{ identifier: string; transports: AuthenticatorTransport[] | null }>(
      `SELECT a.identifier, p.transports FROM accounts a LEFT JOIN passkey_credentials p
       ON p.app_id = a.app_id AND p.credential_id = a.identifier
       WHERE a.user_id = $1 AND a.type = 'passkey' AND a.data->>'enrolled_in_mfa' = 'true' ORDER BY a.id`,
      [userId],
    )

  r.post('/mfa/passkeys/init', { summary: 'MFA: request options for the enrolled passkeys', body: z.object({ relying_party: optId(253) }), auth: 'bearer' }, async (c, { body: b, auth }) => {
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
    })

  r.post('/mfa/passkeys/verify', { summary: 'MFA: verify with an enrolled passkey', body: z.object({ relying_party: optId(253), challenge: id(128), authenticator_response: authenticationResponse }), auth: 'bearer' }, async (c, { body: b, auth }) => {
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
    })

  r.post('/mfa/passkeys/enroll', { summary: 'MFA: enrol the given passkeys (all the user’s passkey credential ids)', body: z.object({ credential_ids: z.array(id(1366)).min(1, 'Required').max(MAX_PASSKEYS, `At most ${MAX_PASSKEYS}`) }), auth: 'bearer' }, async (c, { body: b, auth }) => {
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
    })

  r.post('/mfa/passkeys/unenroll', { summary: 'MFA: stop using passkeys for verification', auth: 'bearer' }, (c, { auth }) =>
    unenroll(c, auth, 'passkey', async (q) => {
      await q.query(
        `UPDATE accounts SET data = jsonb_set(data, '{enrolled_in_mfa}', 'false'::jsonb) WHERE user_id = $1 AND type = 'passkey'`,
        [auth.userId],
      )
    }))
  return r.app
}
