/**
 * New device = recovery with step-up (issue 26, design point 7), and the user's wallet devices.
 *
 *   POST /wallets/step_up/start   {entropy_id}          (token + device proof) → {method:'email'|'sms', to} and a code
 *                                                       sent, or {method:'mfa'} when MFA is enrolled
 *   POST /wallets/step_up/verify  {entropy_id, code?}   (token + device proof) → a grant for this session,
 *                                                       device and root (wallets/custody.ts insertStepUpGrant)
 *   GET  /wallets/devices                               (token) the user's registered devices
 *   POST /wallets/devices/revoke  {device_id}           (token + a proof by a registered device, or a step-up grant)
 *
 * The step-up is a verification the access token does not carry: a one-time code (6 digits
 * from a secure random source, stored hashed, 10 minutes, single use) sent to the user's
 * verified e-mail (else phone) through the server's delivery (the dev outbox in development),
 * or a fresh MFA verification on this session. The code is bound to the session, device and
 * root that asked for it, so no other session or device can use it or spoil it; 5 wrong codes
 * void it. A user with no channel (guest, wallet-only, a social login without e-mail) gets
 * `step_up_unavailable`: for them a new device cannot restore an automatically recovered
 * wallet (README, 'Step-up on a new device').
 */
import { z } from 'zod'
import { hitLimit, issueCode } from '../../codes'
import { clientIp, type ServerCtx } from '../../core/context'
import { canDeliver, DeliveryError, type Delivery } from '../../delivery'
import { custodyErrors, requireDevice } from '../wallets/device'
import { errors } from '../../core/errors'
import { mfaState } from '../mfa/service'
import type { Queryable } from '../../core/store'
import { now } from '../../core/identity/tokens'
import { id } from '../../core/validate'
import { insertStepUpGrant } from '../wallets/custody'
import type { WireWalletDevice } from '../../wire/custody'
import { router } from '../../core/router'
import { STEP_UP_GUESSES_PER_DAY, STEP_UP_MAX_ATTEMPTS, STEP_UP_MSG, STEP_UP_STARTS_PER_WINDOW, maskAddress } from './service'
import { stepUpErrors } from './errors'
import { mfaErrors } from '../mfa/errors'
import { sessionDevice } from '../wallets/repo'
import { activeDevices, consumeCodes, contactsAndGuest, lockNewestCode, revokeDevice, rootEntropyId, setCodeAttempts, useAnyGrant } from './repo'

/** The one-time-code identifier of a step-up: bound to the user, session, device and root. */
const identifier = (userId: string, sessionId: string, deviceId: string, entropyId: string) =>
  `wallet-step-up:${userId}:${sessionId}:${deviceId}:${entropyId.toLowerCase()}`

/** The user's step-up channel: MFA when enrolled, else the verified e-mail, else the phone; null: none. */
async function channelOf(ctx: ServerCtx, appId: string, auth: { userId: string; sessionId: string }): Promise<{ method: 'mfa' } | { method: 'email' | 'sms'; to: string } | null> {
  if ((await mfaState(ctx.store, auth)).enrolled) return { method: 'mfa' }
  const rows = await contactsAndGuest(ctx.store, auth.userId, appId)
  if (!rows.length || rows[0].is_guest) return null
  const email = rows.find((r) => r.type === 'email')
  if (email && canDeliver(ctx.delivery, 'email')) return { method: 'email', to: email.identifier }
  const phone = rows.find((r) => r.type === 'phone')
  if (phone && canDeliver(ctx.delivery, 'sms')) return { method: 'sms', to: phone.identifier }
  return null
}

/** Sends a step-up code (the dev outbox row is written with the code by issueCode). Throws DeliveryError. */
async function sendStepUpCode(d: Delivery, m: { appId: string; appName: string; channel: 'email' | 'sms'; to: string; code: string }): Promise<void> {
  if (d.dev && d.logCodes) d.log.info({ dev_outbox: true, channel: m.channel }, `wallet step-up code for ${m.to}: ${m.code}`)
  const text = `Your ${m.appName} code to confirm it’s you on a new device is ${m.code}. It expires in 10 minutes. If this was not you, do not share it: someone may have your session.`
  try {
    if (m.channel === 'email' && d.email) await d.email.send({ to: m.to, subject: `${STEP_UP_MSG.emailSubject}: ${m.code}`, text })
    else if (m.channel === 'sms' && d.sms) await d.sms.send({ to: m.to, body: text, appId: m.appId })
    else if (!d.dev) throw new Error(`no ${m.channel} provider`)
  } catch (err) {
    d.log.error({ channel: m.channel, err_name: (err as Error)?.name }, 'step-up code delivery failed')
    throw new DeliveryError()
  }
}

/**
 * Checks a step-up code in the caller's transaction: the newest live code of the identifier;
 * a wrong code counts, and the STEP_UP_MAX_ATTEMPTS-th wrong one voids it. 'ok', 'wrong',
 * 'voided' (this guess voided it) or 'none' (no live code).
 */
async function checkStepUpCode(q: Queryable, ctx: ServerCtx, p: { appId: string; channel: 'email' | 'sms'; identifier: string; code: string }): Promise<'ok' | 'wrong' | 'voided' | 'none'> {
  const t = now()
  const row = await lockNewestCode(q, p, t)
  if (!row) return 'none'
  const code = p.code.replace(/\s+/g, '')
  if (/^\d{6}$/.test(code) && ctx.keys.codeHash([p.appId, p.channel, p.identifier, code]) === row.code_hash) {
    await consumeCodes(q, p, t)
    return 'ok'
  }
  const attempts = Number(row.attempts) + 1
  await setCodeAttempts(q, row.id, attempts, STEP_UP_MAX_ATTEMPTS, t)
  return attempts >= STEP_UP_MAX_ATTEMPTS ? 'voided' : 'wrong'
}

/** The user's unrevoked devices, oldest first; `current`: the device the session is bound to. */
export async function listDevices(q: Queryable, appId: string, auth: { userId: string; sessionId: string }): Promise<WireWalletDevice[]> {
  const current = await sessionDevice(q, auth.sessionId)
  const rows = await activeDevices(q, appId, auth.userId)
  return rows.map((r) => ({
    id: r.device_id,
    label: r.label,
    created_at: Number(r.created_at),
    last_used_at: Number(r.last_used_at),
    session_only: !!r.session_only,
    current: r.device_id === current,
  }))
}

export function walletStepUpRoutes(ctx: ServerCtx) {
  const r = router(ctx)
  const rootBody = z.object({ entropy_id: id(64) })

  /** The user's root named by `entropy_id` (its stored spelling), or 404. */
  const rootOf = async (appId: string, userId: string, entropy: string) => {
    const stored = await rootEntropyId(ctx.store, appId, userId, entropy)
    if (stored === undefined) throw stepUpErrors.notFound()
    return stored
  }

  /** A step-up is for a device that is not (or no longer bound as) a registered one; never for a removed one. */
  const stepUpDevice = async (c: Parameters<typeof requireDevice>[0], entropyId: string) => {
    const d = await requireDevice(c, ctx, { entropyId, binding: 'any' })
    if (d.row?.revoked_at != null) throw custodyErrors.revoked()
    return d
  }

  r.post('/wallets/step_up/start', { summary: 'Step-up for a new wallet device: sends a code to the verified e-mail or phone ({method, to}), or {method: "mfa"} — token and device proof', body: rootBody, guard: (c, b) => stepUpDevice(c, b.entropy_id) }, async (c, { body: b, auth: d }) => {
      const app = c.get('app')
      const entropyId = await rootOf(app.id, d.auth.userId, b.entropy_id)
      const channel = await channelOf(ctx, app.id, d.auth)
      if (!channel) throw custodyErrors.stepUpUnavailable()
      c.header('cache-control', 'no-store')
      if (channel.method === 'mfa') return c.json({ method: 'mfa' })
      if (!(await hitLimit(ctx.store, `wallet-step-up:${app.id}:${d.auth.userId}`, STEP_UP_STARTS_PER_WINDOW, ctx.limits.windowS))) throw errors.tooMany()
      const ident = identifier(d.auth.userId, d.auth.sessionId, d.deviceId, entropyId)
      await issueCode(
        ctx.store,
        ctx.limits,
        ctx.keys,
        { appId: app.id, channel: channel.method, identifier: ident, requester: clientIp(c, ctx.trustProxy) },
        {
          outboxTo: ctx.delivery.dev ? channel.to : undefined,
          send: (code) => sendStepUpCode(ctx.delivery, { appId: app.id, appName: app.name, channel: channel.method as 'email' | 'sms', to: channel.to, code }),
        },
      )
      ctx.log.info({ app_id: app.id, method: channel.method }, 'wallet step-up code sent')
      return c.json({ method: channel.method, to: maskAddress(channel.method, channel.to) })
    })

  r.post('/wallets/step_up/verify', { summary: 'Step-up for a new wallet device: the code (or a fresh MFA verification) → a single-use grant for this session, device and root', body: rootBody.extend({ code: id(32).nullish() }), guard: (c, b) => stepUpDevice(c, b.entropy_id) }, async (c, { body: b, auth: d }) => {
      const app = c.get('app')
      const entropyId = await rootOf(app.id, d.auth.userId, b.entropy_id)
      const channel = await channelOf(ctx, app.id, d.auth)
      if (!channel) throw custodyErrors.stepUpUnavailable()
      const ref = { appId: app.id, userId: d.auth.userId, sessionId: d.auth.sessionId, deviceId: d.deviceId, entropyId }
      c.header('cache-control', 'no-store')
      if (channel.method === 'mfa') {
        // The MFA plugin's 'Verify your identity' ran on this session within the fresh window.
        const s = await mfaState(ctx.store, d.auth)
        if (!s.fresh) throw mfaErrors.missing()
        await insertStepUpGrant(ctx.store, ref, 'mfa')
        return c.json({ verified: true, method: 'mfa' })
      }
      if (!b.code) throw errors.invalidData(STEP_UP_MSG.codeRequired, { fields: { code: 'Required' } }, 422)
      // Every guess counts per user per day, whichever code it is aimed at.
      if (!(await hitLimit(ctx.store, `wallet-step-up-guess:${app.id}:${d.auth.userId}`, STEP_UP_GUESSES_PER_DAY, 86400))) throw errors.tooMany()
      const ident = identifier(d.auth.userId, d.auth.sessionId, d.deviceId, entropyId)
      const method = channel.method
      // The verdict commits either way (a wrong code stays counted); the grant only with 'ok'.
      const verdict = await ctx.store.transaction(async (q) => {
        const v = await checkStepUpCode(q, ctx, { appId: app.id, channel: method, identifier: ident, code: b.code! })
        if (v === 'ok') await insertStepUpGrant(q, ref, method)
        return v
      })
      if (verdict === 'none') throw stepUpErrors.noCode()
      if (verdict === 'voided') throw stepUpErrors.voided()
      if (verdict === 'wrong') throw stepUpErrors.invalidCode()
      ctx.log.info({ app_id: app.id, method }, 'wallet step-up verified')
      return c.json({ verified: true, method })
    })

  r.get('/wallets/devices', { summary: "The user's wallet devices (id, label, created_at, last_used_at, session_only, current)", auth: 'bearer' }, async (c, { auth }) => {
    c.header('cache-control', 'no-store')
    return c.json({ devices: await listDevices(ctx.store, c.get('app').id, auth) })
  })

  r.post('/wallets/devices/revoke', { summary: 'Remove a wallet device (it gets no share from then on) — a proof by a registered device of the user, or a step-up grant', body: z.object({ device_id: id(128) }), guard: (c) => requireDevice(c, ctx, { binding: 'bound' }) }, async (c, { body: b, auth: d }) => {
      const app = c.get('app')
      const auth = d.auth
      const t = now()
      await ctx.store.transaction(async (q) => {
        if (!d.row || d.row.revoked_at != null) {
          // Not a registered device: a step-up grant of this session and device (any root) will do.
          if (!(await useAnyGrant(q, { appId: app.id, userId: auth.userId, sessionId: auth.sessionId, deviceId: d.deviceId }, t))) throw custodyErrors.stepUpRequired()
        }
        if (!(await revokeDevice(q, app.id, auth.userId, b.device_id, t))) throw stepUpErrors.deviceNotFound()
      })
      ctx.log.info({ app_id: app.id, own: b.device_id === d.deviceId }, 'wallet device removed')
      return c.json({ devices: await listDevices(ctx.store, app.id, auth) })
    })
  return r.app
}
