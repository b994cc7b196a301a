/**
 * WebAuthn pieces shared by passkey login (routes/passkeys.ts) and passkey MFA (routes/mfa.ts):
 * the request bodies' response shapes, the authentication options, the stored credential, the
 * assertion check and the sign-counter compare-and-set. Options and verification are
 * @simplewebauthn/server's.
 */
import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
} from '@simplewebauthn/server'
import { z } from 'zod'
import type { Queryable } from './store'
import { optId } from './validate'

/** How long a challenge lives (seconds); also the options' time-out. */
export const CHALLENGE_TTL_S = 300

// A WebAuthn response as @simplewebauthn/browser sends it (base64url strings); the library
// checks the rest. Bounded so nothing huge reaches the parser.
const b64 = (max: number) => z.string().max(max, `Must be at most ${max} characters`).regex(/^[A-Za-z0-9_-]*={0,2}$/, 'Expected base64url')
const credentialBase = {
  id: b64(1366).min(1, 'Required'),
  rawId: b64(1366).min(1, 'Required'),
  type: z.literal('public-key', { message: "Expected 'public-key'" }),
  authenticatorAttachment: optId(32),
  clientExtensionResults: z.record(z.string(), z.unknown()).optional().default({}),
}
export const registrationResponse = z.object({
  ...credentialBase,
  response: z.looseObject({
    clientDataJSON: b64(8192).min(1, 'Required'),
    attestationObject: b64(32_768).min(1, 'Required'),
    transports: z.array(z.string().max(32)).max(8).optional(),
  }),
})
export const authenticationResponse = z.object({
  ...credentialBase,
  response: z.looseObject({
    clientDataJSON: b64(8192).min(1, 'Required'),
    authenticatorData: b64(8192).min(1, 'Required'),
    signature: b64(2048).min(1, 'Required'),
    userHandle: b64(512).nullish(),
  }),
})

export interface KnownCredential {
  identifier: string
  transports: AuthenticatorTransport[] | null
}

/** Request options for an assertion; `allow` limits it to those credentials (MFA), none means any discoverable one (login). */
export function authenticationOptions(rpId: string, allow?: KnownCredential[]) {
  return generateAuthenticationOptions({
    rpID: rpId,
    userVerification: 'preferred',
    timeout: CHALLENGE_TTL_S * 1000,
    ...(allow ? { allowCredentials: allow.map((m) => ({ id: m.identifier, transports: m.transports ?? undefined })) } : {}),
  })
}

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

/** Verifies an assertion (signature, origin, RP id, challenge); the authenticator's new counter, or null when it does not verify. */
export async function verifyAssertion(
  response: AuthenticationResponseJSON,
  challenge: string,
  rp: { rpId: string; origins: string[] },
  cred: StoredCredential,
): Promise<number | null> {
  try {
    const v = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.rpId,
      requireUserVerification: false,
      credential: {
        id: response.id,
        publicKey: new Uint8Array(Buffer.from(cred.public_key, 'base64url')),
        counter: Number(cred.counter),
        transports: cred.transports ?? undefined,
      },
    })
    return v.verified ? v.authenticationInfo.newCounter : null
  } catch {
    return null
  }
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
