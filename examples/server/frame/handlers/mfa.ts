/**
 * mfa:verify / mfa:init-enrollment / mfa:submit-enrollment / mfa:unenroll / mfa:clear (spec
 * part 2 section 7, issue 31): the frame runs the user's MFA calls of /api/v1/mfa with the
 * access token it is given. A verification counts for this session on the server (the gate
 * of the auth share, recovery and export: features/mfa/gate.ts), so what the frame verifies
 * here is what lets the next share through; the frame itself keeps nothing of it.
 */
import { base64urlnopad } from '@scure/base'
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
  passkey: 'Invalid passkey response',
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

const rec = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {})
const text = (v: unknown) => (typeof v === 'string' ? v : undefined)

/**
 * The body of POST /mfa/passkeys/verify for a passkey assertion as the published client sends
 * it (`mfaCode`: the WebAuthn response with snake_case fields, or the browser's camelCase JSON):
 * the response in WebAuthn's JSON names, the challenge the server issued (read from
 * clientDataJSON; the server checks it is live and the signature covers it) and the relying
 * party's id (a host name; the client may give the page's origin).
 */
export function passkeyVerifyBody(code: unknown, relyingParty: unknown) {
  const c = rec(code)
  const r = rec(c.response)
  const clientDataJSON = text(r.client_data_json ?? r.clientDataJSON)
  let challenge: unknown
  try {
    challenge = JSON.parse(new TextDecoder().decode(base64urlnopad.decode(clientDataJSON!.replace(/=+$/, '')))).challenge
  } catch {
    challenge = undefined
  }
  if (typeof challenge !== 'string' || !challenge || !text(c.id)) throw new FrameFailure('missing_or_invalid_mfa', MFA_TEXTS.passkey)
  let rp = text(relyingParty)
  if (rp && /^[a-z][a-z0-9+.-]*:\/\//i.test(rp)) {
    try {
      rp = new URL(rp).hostname
    } catch {
      /* the server refuses it with its own message */
    }
  }
  return {
    ...(rp ? { relying_party: rp } : {}),
    challenge,
    authenticator_response: {
      id: c.id,
      rawId: c.raw_id ?? c.rawId ?? c.id,
      type: 'public-key',
      response: {
        clientDataJSON,
        authenticatorData: r.authenticator_data ?? r.authenticatorData,
        signature: r.signature,
        ...((r.user_handle ?? r.userHandle) ? { userHandle: r.user_handle ?? r.userHandle } : {}),
      },
      clientExtensionResults: {},
      ...((c.authenticator_attachment ?? c.authenticatorAttachment) ? { authenticatorAttachment: c.authenticator_attachment ?? c.authenticatorAttachment } : {}),
    },
  }
}

/** Verifies an MFA code for this session (server side); a wrong code is `missing_or_invalid_mfa`, which the host retries. */
export async function verifyMfa(ctx: FrameContext, accessToken: string, method: unknown, code: unknown, relyingParty?: unknown): Promise<void> {
  const m = methodOf(method)
  const token = needToken(accessToken)
  if (m === 'passkey') {
    await postPlain(ctx.config, '/mfa/passkeys/verify', passkeyVerifyBody(code, relyingParty), token)
    return
  }
  if (typeof code !== 'string' || !code.trim()) throw new FrameFailure('missing_or_invalid_mfa', MFA_TEXTS.code)
  await postPlain(ctx.config, `/mfa/${ROUTE[m]}/verify`, { code }, token)
}

register('mfa:verify', async (p, ctx) => {
  if (p.mfaCode === undefined) throw new FrameFailure('missing_or_invalid_mfa', MFA_TEXTS.missing)
  await verifyMfa(ctx, p.accessToken, p.mfaMethod, p.mfaCode, p.relyingParty)
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
  // The enrolment code: `code` (the client), or `mfaCode` without an mfaMethod (the spec's name).
  const code = p.code ?? (p.mfaMethod == null ? p.mfaCode : undefined)
  if (typeof code !== 'string' || !code.trim()) throw new FrameFailure('missing_or_invalid_mfa', MFA_TEXTS.code)
  if (m === 'sms') {
    if (typeof p.phoneNumber !== 'string' || !p.phoneNumber) throw bad(MFA_TEXTS.phone)
    await postPlain(ctx.config, '/mfa/passwordless_sms/enroll', { phoneNumber: p.phoneNumber, code }, token)
  } else {
    await postPlain(ctx.config, '/mfa/totp/enroll', { code }, token)
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
