/**
 * Device proofs and devices (issue 26; wallet-custody.ts has the contract). Every wallet route
 * that releases or changes a secret calls `requireDevice`: the bearer token proves the user,
 * the proof proves the frame's device key. One guard for every route (wallets, cloud recovery,
 * step-up, OPRF, delegation), so the rules live in one place:
 *
 * - the proof: a compact JWS (ES256 only, typ portico-device+jwt, its public JWK embedded),
 *   issued within PROOF_MAX_AGE_S, for this method and path, this access token (ath) and this
 *   root (eid), carrying a single-use nonce this server issued to this session;
 * - the binding: the first proof on a session binds the session to its device; a proof by
 *   another device on a bound session is refused (`device_step_up_required`) unless the route
 *   asks for `binding: 'any'` (step-up, user-owned recovery) and decides itself;
 * - registration: `registered: true` refuses a device the user never registered, or revoked.
 *
 * Every answer of a guarded route carries the next nonce (`portico-device-nonce`), errors too.
 *
 * Another route that releases or changes a secret (step-up, OPRF evaluation, delegation):
 *   const d = await requireDevice(c, ctx, { entropyId: b.entropy_id, registered: true })
 * (`binding: 'any'` when a new device may call it, e.g. the step-up itself; then check `d.bound`
 * / `d.row` and re-bind with `rebindSession` once the user is proven).
 */
import { createHash } from 'node:crypto'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { verifyMessage, type Hex } from 'viem'
import { EmbeddedJWK, calculateJwkThumbprint, decodeProtectedHeader, jwtVerify, type JWK } from 'jose'
import { bearer, requireAuth, type Auth } from '../../core/auth'
import type { C, ServerCtx } from '../../core/context'
import { devOutboxNotice } from '../../delivery'
import { ApiError } from '../../core/errors'
import { browserAndOs } from '../../user-agent'
import type { Queryable } from '../../core/store'
import { now, randomToken } from '../../core/identity/tokens'
import { contactAccounts } from '../../core/identity/repo'
import { bindSession, insertProofNonce, lockActiveDevice, selectDevice, sessionDevice, touchDevice, upsertDevice, useProofNonce, type DeviceRow } from './repo'
import {
  CUSTODY_CODES,
  CUSTODY_TEXTS,
  DEVICE_NONCE_HEADER,
  DEVICE_PROOF_HEADER,
  DEVICE_PROOF_TYP,
  PROOF_MAX_AGE_S,
  PROOF_NONCE_TTL_S,
} from './custody'
import { recoveryProofMessage } from '../../wire/custody'

export const custodyErrors = {
  proofRequired: () => new ApiError(403, CUSTODY_CODES.proofRequired, CUSTODY_TEXTS.proofRequired),
  nonce: () => new ApiError(401, CUSTODY_CODES.nonce, CUSTODY_TEXTS.nonce),
  stepUpRequired: () => new ApiError(403, CUSTODY_CODES.stepUpRequired, CUSTODY_TEXTS.stepUpRequired),
  stepUpUnavailable: () => new ApiError(403, CUSTODY_CODES.stepUpUnavailable, CUSTODY_TEXTS.stepUpUnavailable),
  revoked: () => new ApiError(403, CUSTODY_CODES.deviceRevoked, CUSTODY_TEXTS.deviceRevoked),
  ownerSignature: () => new ApiError(403, CUSTODY_CODES.ownerSignature, CUSTODY_TEXTS.ownerSignature),
}

/** A fresh single-use nonce for this session. */
export async function issueNonce(q: Queryable, appId: string, sessionId: string): Promise<string> {
  const nonce = randomToken(18)
  const t = now()
  await insertProofNonce(q, { nonce, appId, sessionId, t, expiresAt: t + PROOF_NONCE_TTL_S })
  return nonce
}

/** Sets the next nonce on the answer (kept by errors too: Hono's c.header survives onError's c.json). */
export async function answerWithNonce(c: C, ctx: ServerCtx, auth: Auth): Promise<string> {
  const n = await issueNonce(ctx.store, c.get('app').id, auth.sessionId)
  c.header(DEVICE_NONCE_HEADER, n)
  c.header('access-control-expose-headers', DEVICE_NONCE_HEADER)
  return n
}

const sha256url = (s: string) => createHash('sha256').update(s).digest('base64url')

export interface VerifiedProof {
  deviceId: string
  jwk: JWK
  nonce: string
}

export interface ProofExpectation {
  method: string
  /** The path under /api/v1. */
  path: string
  /** The bearer access token the request carries. */
  accessToken: string
  entropyId: string | null
}

/**
 * The proof's signature and claims (no database): ES256 by the JWK in its header, typ, iat
 * within PROOF_MAX_AGE_S, htm/htu, ath, eid. Returns the nonce to consume and the device's
 * public JWK; null when anything is off.
 */
export async function checkProofJws(jws: string, want: ProofExpectation, t = now()): Promise<{ nonce: unknown; jwk: JWK } | null> {
  if (jws.length > 4096) return null
  try {
    const header = decodeProtectedHeader(jws)
    if (header.alg !== 'ES256' || header.typ !== DEVICE_PROOF_TYP) return null
    const jwk = header.jwk as JWK
    if (!jwk || jwk.kty !== 'EC' || jwk.crv !== 'P-256' || 'd' in jwk) return null
    const { payload } = await jwtVerify(jws, EmbeddedJWK, { typ: DEVICE_PROOF_TYP, algorithms: ['ES256'] })
    const iat = payload.iat
    const ok =
      typeof iat === 'number' &&
      Math.abs(t - iat) <= PROOF_MAX_AGE_S &&
      payload.htm === want.method &&
      payload.htu === want.path &&
      payload.ath === sha256url(want.accessToken) &&
      (payload.eid ?? null) === (want.entropyId ? want.entropyId.toLowerCase() : null) &&
      typeof payload.jti === 'string'
    return ok ? { nonce: payload.nonce, jwk: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y } } : null
  } catch {
    return null
  }
}

/** Verifies the request's device proof (everything but the binding); consumes its nonce. */
export async function verifyProof(c: C, ctx: ServerCtx, auth: Auth, entropyId: string | null): Promise<VerifiedProof> {
  const token = bearer(c)
  const jws = c.req.header(DEVICE_PROOF_HEADER)
  if (!jws || !token) throw custodyErrors.proofRequired()
  const t = now()
  const checked = await checkProofJws(jws, { method: c.req.method, path: c.req.path.replace(/^\/api\/v1/, ''), accessToken: token, entropyId }, t)
  if (!checked) throw custodyErrors.proofRequired()
  const nonce = checked.nonce
  if (typeof nonce !== 'string' || nonce.length > 64) throw custodyErrors.nonce()
  if (!(await useProofNonce(ctx.store, nonce, c.get('app').id, auth.sessionId, t))) throw custodyErrors.nonce()
  return { deviceId: await calculateJwkThumbprint(checked.jwk, 'sha256'), jwk: checked.jwk, nonce }
}

export type { DeviceRow }

export interface Device extends VerifiedProof {
  auth: Auth
  /** The device the session was bound to before this request (null: this request bound it). */
  boundBefore: string | null
  /** Whether the session is bound to this device. */
  bound: boolean
  /** The registration (null: never registered), revoked ones included. */
  row: DeviceRow | null
}

export interface DeviceOptions {
  /** The root the request is about (the proof's eid must name it). */
  entropyId?: string | null
  /** Only a registered, unrevoked device (default false). */
  registered?: boolean
  /** 'bound' (default): an unbound session binds to this device, a session bound to another refuses. 'any': the route decides. */
  binding?: 'bound' | 'any'
}

/**
 * The guard of every route that releases or changes a wallet secret: a valid token, a valid
 * proof, the session's device (binding it when unbound), and with `registered` a registered,
 * unrevoked device. Answers carry the next nonce.
 */
export async function requireDevice(c: C, ctx: ServerCtx, opts: DeviceOptions = {}): Promise<Device> {
  const auth = await requireAuth(c, ctx)
  await answerWithNonce(c, ctx, auth)
  const appId = c.get('app').id
  const proof = await verifyProof(c, ctx, auth, opts.entropyId ?? null)
  let boundBefore = await sessionDevice(ctx.store, auth.sessionId)
  if (!boundBefore) {
    // The first proof binds the session (a racing first proof of another device loses).
    if (!(await bindSession(ctx.store, auth.sessionId, proof.deviceId))) boundBefore = await sessionDevice(ctx.store, auth.sessionId)
  }
  const bound = !boundBefore || boundBefore === proof.deviceId
  const row = await selectDevice(ctx.store, appId, auth.userId, proof.deviceId)
  if (row?.revoked_at != null && (opts.registered || (opts.binding ?? 'bound') === 'bound')) throw custodyErrors.revoked()
  if ((opts.binding ?? 'bound') === 'bound' && !bound) throw custodyErrors.stepUpRequired()
  if (opts.registered && !row) throw custodyErrors.stepUpRequired()
  if (row && row.revoked_at == null) {
    await touchDevice(ctx.store, appId, auth.userId, proof.deviceId, now())
  }
  return { ...proof, auth, boundBefore, bound, row: row ?? null }
}

/** Binds the session to `deviceId` (after a grant or an owner signature proved the user on it). */
export { rebindSession } from './repo'

/**
 * Registers (or re-admits) a device for the user; true when it is new to the user's wallet (the
 * caller notifies the user). 'create' / 'import' / 'step_up' / 'recovery'.
 */
export async function registerDevice(
  q: Queryable,
  d: { appId: string; userId: string; deviceId: string; jwk: JWK; addedBy: 'create' | 'import' | 'step_up' | 'recovery'; label?: string | null; sessionOnly?: boolean },
): Promise<boolean> {
  if (await lockActiveDevice(q, d.appId, d.userId, d.deviceId)) return false
  await upsertDevice(q, d, now())
  return true
}

/** A short label for the device the request came from ('Chrome on Linux'), from its User-Agent. */
export function deviceLabel(userAgent: string | undefined): string {
  const { browser, os } = browserAndOs(userAgent)
  if (browser && os) return `${browser} on ${os}`
  return browser ?? os ?? 'Unknown device'
}

/**
 * Tells the user a device was added to their wallet: 'A new device was added to your wallet',
 * the date and the device, by e-mail (or SMS) to their verified addresses, through the
 * server's delivery providers. Never fails the request: a delivery failure is logged.
 */
export async function notifyNewDevice(ctx: ServerCtx, p: { appId: string; userId: string; label: string }): Promise<void> {
  const app = ctx.apps.get(p.appId)
  const rows = await contactAccounts(ctx.store, p.userId, p.appId)
  const date = new Date(now() * 1000).toUTCString()
  const line = `${CUSTODY_TEXTS.newDeviceNotice}: ${p.label}, ${date}.`
  const text = `${line} If this was not you, remove the device in ${app?.name ?? 'the app'} and contact support.`
  const email = rows.find((r) => r.type === 'email')
  const phone = rows.find((r) => r.type === 'phone')
  try {
    // Development mode: the notice in the dev outbox too (`/dev/outbox?kind=notice`).
    const to = email ?? phone
    if (to) await devOutboxNotice(ctx.store, ctx.delivery, { appId: p.appId, channel: to.type === 'email' ? 'email' : 'sms', to: to.identifier, text })
    if (email && ctx.delivery.email) await ctx.delivery.email.send({ to: email.identifier, subject: CUSTODY_TEXTS.newDeviceNotice, text })
    else if (phone && ctx.delivery.sms) await ctx.delivery.sms.send({ to: phone.identifier, body: text, appId: p.appId })
    else if (ctx.delivery.dev) ctx.log.info({ app_id: p.appId, dev_notice: true }, line)
  } catch (err) {
    ctx.log.error({ err_name: (err as Error)?.name }, 'new device notice failed')
  }
}

/**
 * Whether `signature` is the root's index-0 key over `message` (src/wire/custody.ts):
 * EIP-191 personal_sign for Ethereum roots (viem verifyMessage), ed25519 over the UTF-8 bytes
 * for Solana roots (base58 signature).
 */
export async function verifyOwnerSignature(root: { entropy_id: string; entropy_id_verifier: string }, message: string, signature: unknown): Promise<boolean> {
  if (typeof signature !== 'string' || !signature || signature.length > 256) return false
  try {
    if (root.entropy_id_verifier === 'ethereum-address-verifier') {
      if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return false
      return await verifyMessage({ address: root.entropy_id as Hex, message, signature: signature as Hex })
    }
    return ed25519.verify(base58.decode(signature), new TextEncoder().encode(message), base58.decode(root.entropy_id))
  } catch {
    return false
  }
}

/** Whether `proof` is the recovery-proof key's signature (frame recovery-proof.ts) for this nonce and device. */
export function verifyRecoveryProof(publicKey: string | null, proof: unknown, p: { appId: string; entropyId: string; nonce: string; deviceId: string }): boolean {
  if (!publicKey || typeof proof !== 'string' || proof.length > 128) return false
  try {
    return ed25519.verify(Buffer.from(proof, 'base64url'), new TextEncoder().encode(recoveryProofMessage(p)), Buffer.from(publicKey, 'base64url'))
  } catch {
    return false
  }
}
