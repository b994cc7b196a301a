/**
 * WebAuthn pieces shared by passkey login (routes.ts) and passkey MFA (features/mfa): the
 * relying party,
 * the request bodies' response shapes, the authentication options, the stored credential, the
 * assertion check and the sign-counter compare-and-set. Options and verification are
 * @simplewebauthn/server's.
 */
import type { AuthenticationResponseJSON, AuthenticatorTransport } from '@simplewebauthn/server'
import { isIP } from 'node:net'
import { z } from 'zod'
import type { AppSettings } from '../../config'
import { errors } from '../../core/errors'
import type { StoredCredential } from './repo'
import { optId } from '../../core/validate'
import { PASSKEY_MSG, notAllowed } from './errors'

/** How long a challenge lives (seconds); also the options' time-out. */
export const CHALLENGE_TTL_S = 300

let lib: Promise<typeof import('@simplewebauthn/server')> | undefined
/** @simplewebauthn/server, loaded with the first passkey ceremony (not at the server's start: it and its ASN.1 stack are a large part of the import). */
export const webauthnLib = () => (lib ??= import('@simplewebauthn/server'))

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

/**
 * The published client of this contract sends the same response with snake_case names
 * (`raw_id`, `response.client_data_json`, `response.attestation_object`, ...). Its names are
 * read as the WebAuthn ones (a name already given in camelCase wins), then one schema checks
 * the result: both spellings reach the same validation and verification.
 */
const SNAKE_NAMES: Record<string, string> = {
  raw_id: 'rawId',
  authenticator_attachment: 'authenticatorAttachment',
  client_extension_results: 'clientExtensionResults',
  client_data_json: 'clientDataJSON',
  attestation_object: 'attestationObject',
  authenticator_data: 'authenticatorData',
  user_handle: 'userHandle',
  public_key: 'publicKey',
  public_key_algorithm: 'publicKeyAlgorithm',
  app_id: 'appid',
  cred_props: 'credProps',
  hmac_create_secret: 'hmacCreateSecret',
}
const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
function camelNames(v: unknown, depth = 0): unknown {
  if (!isPlain(v) || depth > 2) return v
  const out: Record<string, unknown> = {}
  for (const [k, val] of Object.entries(v)) {
    const name = SNAKE_NAMES[k] ?? k
    if (name !== k && name in v) continue
    out[name] = camelNames(val, depth + 1)
  }
  return out
}
const eitherCase = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => camelNames(v), schema).describe('WebAuthn response JSON; the same names in snake_case (raw_id, response.client_data_json, ...) are read too')

export const registrationResponse = eitherCase(
  z.object({
    ...credentialBase,
    response: z.looseObject({
      clientDataJSON: b64(8192).min(1, 'Required'),
      attestationObject: b64(32_768).min(1, 'Required'),
      transports: z.array(z.string().max(32)).max(8).optional(),
    }),
  }),
)
export const authenticationResponse = eitherCase(
  z.object({
    ...credentialBase,
    response: z.looseObject({
      clientDataJSON: b64(8192).min(1, 'Required'),
      authenticatorData: b64(8192).min(1, 'Required'),
      signature: b64(2048).min(1, 'Required'),
      userHandle: b64(512).nullish(),
    }),
  }),
)

/**
 * The challenge a response answers, read from its clientDataJSON (the published client sends
 * no `challenge` with a registration). It is only a candidate: the route still requires it to
 * be a live challenge of this purpose, and the library checks the signed client data against it.
 */
export function challengeOf(resp: { response: { clientDataJSON: string } }): string | null {
  try {
    const c = JSON.parse(Buffer.from(resp.response.clientDataJSON, 'base64url').toString('utf8'))?.challenge
    return typeof c === 'string' && c.length > 0 && c.length <= 128 && /^[A-Za-z0-9_-]+$/.test(c) ? c : null
  } catch {
    return null
  }
}

/**
 * WebAuthn options (@simplewebauthn's JSON, camelCase) with every name also in snake_case
 * (`pub_key_cred_params`, `authenticator_selection`, `allow_credentials`, `rp_id`, ...), the
 * form the published client reads. Browsers ignore the names they do not know.
 */
export function withSnakeNames<T>(v: T): T {
  if (Array.isArray(v)) return v.map(withSnakeNames) as T
  if (!isPlain(v)) return v
  const out: Record<string, unknown> = {}
  for (const [k, val] of Object.entries(v)) {
    const copy = withSnakeNames(val)
    out[k] = copy
    const snake = k.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`)
    if (snake !== k && !(snake in v)) out[snake] = copy
  }
  return out as T
}

export interface KnownCredential {
  identifier: string
  transports: AuthenticatorTransport[] | null
}

/** Request options for an assertion; `allow` limits it to those credentials (MFA), none means any discoverable one (login). */
export async function authenticationOptions(rpId: string, allow?: KnownCredential[]) {
  const { generateAuthenticationOptions } = await webauthnLib()
  return generateAuthenticationOptions({
    rpID: rpId,
    userVerification: 'preferred',
    timeout: CHALLENGE_TTL_S * 1000,
    ...(allow ? { allowCredentials: allow.map((m) => ({ id: m.identifier, transports: m.transports ?? undefined })) } : {}),
  })
}

export { advanceCounter, loadCredential, type StoredCredential } from './repo'

/** Verifies an assertion (signature, origin, RP id, challenge); the authenticator's new counter, or null when it does not verify. */
export async function verifyAssertion(
  response: AuthenticationResponseJSON,
  challenge: string,
  rp: { rpId: string; origins: string[] },
  cred: StoredCredential,
): Promise<number | null> {
  const { verifyAuthenticationResponse } = await webauthnLib()
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

/** Spec part 1 section 9: at most 5 passkeys per user. */
export const MAX_PASSKEYS = 5

/** Authenticator names of well-known AAGUIDs (the community list of passkey providers). */
export const AAGUID_NAMES: Record<string, string> = {
  'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4': 'Google Password Manager',
  'adce0002-35bc-c60a-648b-0b25f1f05503': 'Chrome on Mac',
  'fbfc3007-154e-4ecc-8c0b-6e020557d7bd': 'iCloud Keychain',
  'dd4ec289-e01d-41c9-bb89-70fa845d4bf2': 'iCloud Keychain (Managed)',
  'bada5566-a7aa-401f-bd96-45619a55120d': '1Password',
  'd548826e-79b4-db40-a3d8-11116f7e8349': 'Bitwarden',
  '08987058-cadc-4b81-b6e1-30de50dcbe96': 'Windows Hello',
  '9ddd1817-af5a-4672-a2b9-3e3dd95000a9': 'Windows Hello',
  '6028b017-b1d4-4c02-b4b3-afcdafc96bb2': 'Windows Hello',
  '531126d6-e717-415c-9320-3d9aa6981239': 'Dashlane',
  'b84e4048-15dc-4dd0-8640-f4f60813c8af': 'NordPass',
  '0ea242b4-43c4-4a1b-8b17-dd6d0b6baec6': 'Keeper',
  'f3809540-7f14-49c1-a8b3-8f813b225541': 'Enpass',
  '771b48fd-d3d4-4f74-9232-fc157ab0507a': 'Edge on Mac',
  '53414d53-554e-4700-0000-000000000000': 'Samsung Pass',
}

export function authenticatorName(aaguid: string | undefined): string | null {
  return (aaguid && AAGUID_NAMES[aaguid.toLowerCase()]) || null
}

/** The relying party id (requested or the app's first) and the origins a response may come from. */
export function relyingParty(app: AppSettings, requested?: string | null): { rpId: string; origins: string[] } {
  const hostOf = (o: string) => {
    try {
      return new URL(o).hostname
    } catch {
      return ''
    }
  }
  const ids = app.passkeys?.rpIds ?? [...new Set(app.allowedOrigins.map(hostOf).filter((h) => h && !isIP(h.replace(/^\[|\]$/g, ''))))]
  if (!ids.length) throw notAllowed(PASSKEY_MSG.notConfigured)
  const rpId = requested ?? ids[0]
  if (!ids.includes(rpId)) {
    throw errors.invalidData('relying_party: not a relying party of this app', { fields: { relying_party: 'Not a relying party of this app' } }, 422)
  }
  const origins =
    app.passkeys?.origins ??
    app.allowedOrigins.filter((o) => {
      const h = hostOf(o)
      return h === rpId || h.endsWith(`.${rpId}`)
    })
  return { rpId, origins }
}
