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
import type { AuthenticationResponseJSON } from '@simplewebauthn/server'
import * as OTPAuth from 'otpauth'
import { z } from 'zod'
import { checkCode, issueCode } from '../../codes'
import { clientIp, type C, type ServerCtx } from '../../core/context'
import { codeDelivery } from '../../delivery'
import { errors } from '../../core/errors'
import { emitEvent } from '../../core/events'
import { loadUser, userResponse } from '../../core/identity'
import type { Queryable } from '../../core/store'
import { now } from '../../core/identity/tokens'
import { id, optId } from '../../core/validate'
import { normalisePhone } from '../passwordless/sms'
import { MAX_PASSKEYS, relyingParty } from '../passkeys/webauthn'
import { CHALLENGE_TTL_S, advanceCounter, authenticationOptions, authenticationResponse, loadCredential, verifyAssertion, withSnakeNames } from '../passkeys/webauthn'
import { router } from '../../core/router'
import type { Auth } from '../../core/auth'
import { MFA_ATTEMPT_WINDOW_S, MFA_DAILY_ATTEMPTS, MFA_FRESH_S, MFA_MAX_ATTEMPTS, MFA_PENDING_TTL_S, type MfaType, allowedTypes, countAttempt, markVerified, mfaState, totpOf, totpStep } from './service'
import { MFA_MSG, mfaErrors } from './errors'
import { hasAccountOfType, identifiersOfType, lockUser } from '../../core/identity/repo'
import {
  advanceTotpStep,
  deleteMethod,
  methodData,
  pendingTotp,
  putPendingTotp,
  setPasskeysEnrolled,
  takePendingTotp,
  upsertMethod,
} from './repo'
import { insertChallenge, liveChallenge, passkeysOf, useChallenge } from '../passkeys/repo'

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
      if (!(await deleteMethod(q, auth.userId, type))) throw mfaErrors.notEnrolled()
      await extra?.(q, auth)
      await emitEvent(q, c.get('app').id, 'mfa.disabled', { user_id: auth.userId, method: type })
    })
    return done(c, auth.userId)
  }

  // ---------------------------------------------------------- TOTP

  r.post('/mfa/totp/init', { summary: 'MFA: start authenticator-app enrolment (auth_url and secret, also as totpAuthUrl and totpSecret)', auth: 'bearer' }, async (c, { auth }) => {
    allowed(c, 'totp')
    await changeAllowed(auth)
    const app = c.get('app')
    const user = await loadUser(ctx.store, auth.userId)
    const email = user?.linked_accounts.find((a) => a.type === 'email') as { address?: string } | undefined
    const secret = new OTPAuth.Secret({ size: 20 }).base32
    const t = now()
    await putPendingTotp(ctx.store, auth.userId, await ctx.keys.seal(secret, SEAL_PURPOSE), t, t + MFA_PENDING_TTL_S)
    const authUrl = totpOf(secret, app.name, email?.address ?? app.name).toString()
    // The same two values under the published client's names too.
    return c.json({ auth_url: authUrl, secret, totpAuthUrl: authUrl, totpSecret: secret })
  })

  r.post('/mfa/totp/enroll', { summary: 'MFA: finish authenticator-app enrolment with a code', body: z.object({ code }), auth: 'bearer' }, async (c, { body: b, auth }) => {
    allowed(c, 'totp')
    await changeAllowed(auth)
    const sealed = await pendingTotp(ctx.store, auth.userId, now())
    if (sealed === undefined) throw errors.invalidData(MFA_MSG.noPending)
    await countAttempt(ctx.store, auth.userId)
    const step = totpStep(await ctx.keys.open(sealed, SEAL_PURPOSE), normaliseCode(b.code))
    if (step === null) throw mfaErrors.invalidCode()
    await ctx.store.transaction(async (q) => {
      // The pending row is consumed with the write: two racing enrolments, one wins.
      if (!(await takePendingTotp(q, auth.userId, sealed))) throw errors.invalidData(MFA_MSG.noPending)
      await upsertMethod(q, auth.userId, 'totp', { secret: sealed }, now(), step)
      await markVerified(q, auth, 'totp')
      await emitEvent(q, c.get('app').id, 'mfa.enabled', { user_id: auth.userId, method: 'totp' })
    })
    return done(c, auth.userId)
  })

  r.post('/mfa/totp/verify', { summary: 'MFA: verify with an authenticator-app code', body: z.object({ code }), auth: 'bearer' }, async (c, { body: b, auth }) => {
    const totp = await methodData<{ secret: string }>(ctx.store, auth.userId, 'totp')
    if (!totp) throw mfaErrors.notEnrolled()
    await countAttempt(ctx.store, auth.userId)
    const step = totpStep(await ctx.keys.open(totp.secret, SEAL_PURPOSE), normaliseCode(b.code))
    if (step === null) throw mfaErrors.invalidCode()
    await ctx.store.transaction(async (q) => {
      // Compare-and-set: a step already used (a replayed code, a racing copy) is refused.
      if (!(await advanceTotpStep(q, auth.userId, step))) throw mfaErrors.codeUsed()
      await markVerified(q, auth, 'totp')
    })
    return c.json({ success: true })
  })

  r.post('/mfa/totp/unenroll', { summary: 'MFA: remove the authenticator app', auth: 'bearer' }, (c, { auth }) => unenroll(c, auth, 'totp'))

  // ---------------------------------------------------------- SMS

  const requester = (c: C) => clientIp(c, ctx.trustProxy)
  const smsNumber = async (userId: string) => {
    const sms = await methodData<{ number: string }>(ctx.store, userId, 'sms')
    if (!sms) throw mfaErrors.notEnrolled()
    return sms.number
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
    if (await hasAccountOfType(ctx.store, userId, 'phone')) throw errors.invalidData(MFA_MSG.smsAuthUser)
  }

  r.post('/mfa/passwordless_sms/enroll', { summary: 'MFA: finish SMS enrolment with the code sent to phoneNumber', body: z.object({ phoneNumber: id(64), code }), auth: 'bearer' }, async (c, { body: b, auth }) => {
      allowed(c, 'sms')
      const number = normalisePhone(b.phoneNumber)
      await changeAllowed(auth)
      await refuseSmsAuthUser(auth.userId)
      await countAttempt(ctx.store, auth.userId)
      const ok = await ctx.store.transaction(async (q) => {
        if (!(await check(c, q, `mfa-enroll:${auth.userId}:${number}`, b.code))) return false
        await upsertMethod(q, auth.userId, 'sms', { number }, now())
        await markVerified(q, auth, 'sms')
        await emitEvent(q, c.get('app').id, 'mfa.enabled', { user_id: auth.userId, method: 'sms' })
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

  r.post('/mfa/passkeys/init', { summary: 'MFA: request options for the enrolled passkeys', body: z.object({ relying_party: optId(253) }), auth: 'bearer' }, async (c, { body: b, auth }) => {
      const app = c.get('app')
      const rp = relyingParty(app, b.relying_party)
      const mine = await passkeysOf(ctx.store, auth.userId, true)
      if (!mine.length) throw mfaErrors.notEnrolled()
      const options = await authenticationOptions(rp.rpId, mine)
      const t = now()
      await insertChallenge(ctx.store, { value: options.challenge, appId: app.id, purpose: 'mfa_passkey', subject: auth.userId }, rp.rpId, t, t + CHALLENGE_TTL_S)
      return c.json({ relying_party: rp.rpId, options: withSnakeNames(options) })
    })

  r.post('/mfa/passkeys/verify', { summary: 'MFA: verify with an enrolled passkey', body: z.object({ relying_party: optId(253), challenge: id(128), authenticator_response: authenticationResponse }), auth: 'bearer' }, async (c, { body: b, auth }) => {
      const app = c.get('app')
      const rp = relyingParty(app, b.relying_party)
      const challenge = { value: b.challenge, appId: app.id, purpose: 'mfa_passkey', subject: auth.userId }
      if (!(await liveChallenge(ctx.store, challenge, rp.rpId, now()))) throw mfaErrors.invalidCode()
      await countAttempt(ctx.store, auth.userId)
      const resp = b.authenticator_response as unknown as AuthenticationResponseJSON
      if (!(await passkeysOf(ctx.store, auth.userId, true)).some((p) => p.identifier === resp.id)) throw mfaErrors.invalidCode()
      const cred = await loadCredential(ctx.store, app.id, resp.id)
      if (!cred) throw mfaErrors.invalidCode()
      const newCounter = await verifyAssertion(resp, b.challenge, rp, cred)
      if (newCounter === null) throw mfaErrors.invalidCode()
      await ctx.store.transaction(async (q) => {
        if (!(await useChallenge(q, challenge, now()))) throw mfaErrors.invalidCode()
        if (!(await advanceCounter(q, app.id, resp.id, newCounter))) throw mfaErrors.invalidCode()
        await markVerified(q, auth, 'passkey')
      })
      return c.json({ success: true })
    })

  r.post('/mfa/passkeys/enroll', { summary: 'MFA: enrol the given passkeys (all the user’s passkey credential ids)', body: z.object({ credential_ids: z.array(id(1366)).min(1, 'Required').max(MAX_PASSKEYS, `At most ${MAX_PASSKEYS}`) }), auth: 'bearer' }, async (c, { body: b, auth }) => {
      allowed(c, 'passkey')
      await changeAllowed(auth)
      await ctx.store.transaction(async (q) => {
        await lockUser(q, auth.userId)
        const ids = new Set(await identifiersOfType(q, auth.userId, 'passkey'))
        if (!b.credential_ids.every((x) => ids.has(x))) throw errors.invalidData(MFA_MSG.notYourPasskey)
        await setPasskeysEnrolled(q, auth.userId, b.credential_ids)
        await upsertMethod(q, auth.userId, 'passkey', {}, now())
        await emitEvent(q, c.get('app').id, 'mfa.enabled', { user_id: auth.userId, method: 'passkey' })
      })
      return done(c, auth.userId)
    })

  r.post('/mfa/passkeys/unenroll', { summary: 'MFA: stop using passkeys for verification', auth: 'bearer' }, (c, { auth }) =>
    unenroll(c, auth, 'passkey', (q) => setPasskeysEnrolled(q, auth.userId, null)))
  return r.app
}
