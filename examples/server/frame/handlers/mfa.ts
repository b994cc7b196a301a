/**
 * mfa:verify / mfa:init-enrollment / mfa:submit-enrollment / mfa:unenroll / mfa:clear (spec
 * part 2 section 7, issue 31): the frame runs the user's MFA calls of /api/v1/mfa with the
 * access token it is given. A verification counts for this session on the server (the gate
 * of the auth share, recovery and export: features/mfa/gate.ts), so what the frame verifies
 * here is what lets the next share through; the frame itself keeps nothing of it.
 */
import { FRAME_TEXTS, FrameFailure, postPlain, type FrameContext } from '../context'
import type { FrameMfaMethod } from '../messages'
import { clearSession } from '../session'
import { register } from './registry'

const ROUTE: Record<FrameMfaMethod, string> = { totp: 'totp', sms: 'passwordless_sms', passkey: 'passkeys' }

const bad = (msg: string) => new FrameFailure('invalid_request_arguments', msg)
const MFA_TEXTS = {
  method: "method: expected 'sms', 'totp' or 'passkey'",
  code: 'Invalid MFA code',
  missing: 'Missing or invalid MFA',
  passkeyVerify: 'Passkey verification through the wallet frame is not supported by this server: verify with /api/v1/mfa/passkeys/verify.',
  phone: 'phoneNumber: Required',
  credentialIds: 'credentialIds: expected a list of passkey credential ids',
} as const

function methodOf(m: unknown): FrameMfaMethod {
  if (m === 'totp' || m === 'sms' || m === 'passkey') return m
  throw bad(MFA_TEXTS.method)
}

function needToken(t: unknown): string {
  if (typeof t !== 'string' || !t) throw bad(FRAME_TEXTS.missingToken)
  return t
}

/** Verifies an MFA code for this session (server side); a wrong code is `missing_or_invalid_mfa`, which the host retries. */
export async function verifyMfa(ctx: FrameContext, accessToken: string, method: unknown, code: unknown): Promise<void> {
  const m = methodOf(method)
  if (m === 'passkey') throw bad(MFA_TEXTS.passkeyVerify)
  if (typeof code !== 'string' || !code.trim()) throw new FrameFailure('missing_or_invalid_mfa', MFA_TEXTS.code)
  await postPlain(ctx.config, `/mfa/${ROUTE[m]}/verify`, { code }, needToken(accessToken))
}

register('mfa:verify', async (p, ctx) => {
  if (p.mfaCode === undefined) throw new FrameFailure('missing_or_invalid_mfa', MFA_TEXTS.missing)
  await verifyMfa(ctx, p.accessToken, p.mfaMethod, p.mfaCode)
  return {}
})

register('mfa:init-enrollment', async (p, ctx) => {
  const token = needToken(p.accessToken)
  if (p.method === 'totp') {
    // The server answers { auth_url, secret } (the spec's names) or the client's { totpAuthUrl, totpSecret }.
    const r = await postPlain<Record<string, string | undefined>>(ctx.config, '/mfa/totp/init', {}, token)
    return { method: 'totp', secret: r.secret ?? r.totpSecret, authUrl: r.auth_url ?? r.authUrl ?? r.totpAuthUrl }
  }
  if (p.method === 'sms') {
    if (typeof p.phoneNumber !== 'string' || !p.phoneNumber) throw bad(MFA_TEXTS.phone)
    await postPlain(ctx.config, '/mfa/passwordless_sms/init', { action: 'enroll', phoneNumber: p.phoneNumber }, token)
    return { method: 'sms' }
  }
  throw bad("method: expected 'sms' or 'totp'")
})

register('mfa:submit-enrollment', async (p, ctx) => {
  const token = needToken(p.accessToken)
  const m = methodOf(p.method)
  if (m === 'passkey') {
    if (!Array.isArray(p.credentialIds) || !p.credentialIds.length || p.credentialIds.some((c) => typeof c !== 'string')) throw bad(MFA_TEXTS.credentialIds)
    await postPlain(ctx.config, '/mfa/passkeys/enroll', { credential_ids: p.credentialIds }, token)
    return {}
  }
  if (typeof p.code !== 'string' || !p.code.trim()) throw new FrameFailure('missing_or_invalid_mfa', MFA_TEXTS.code)
  if (m === 'sms') {
    if (typeof p.phoneNumber !== 'string' || !p.phoneNumber) throw bad(MFA_TEXTS.phone)
    await postPlain(ctx.config, '/mfa/passwordless_sms/enroll', { phoneNumber: p.phoneNumber, code: p.code }, token)
  } else {
    await postPlain(ctx.config, '/mfa/totp/enroll', { code: p.code }, token)
  }
  return {}
})

register('mfa:unenroll', async (p, ctx) => {
  await postPlain(ctx.config, `/mfa/${ROUTE[methodOf(p.method)]}/unenroll`, {}, needToken(p.accessToken))
  return {}
})

register('mfa:clear', async () => {
  clearSession()
  return {}
})
