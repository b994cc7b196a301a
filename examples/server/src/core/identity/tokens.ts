/**
 * Tokens: the ES256 signer (access and identity JWTs) and the token answers of a login or an
 * account change.
 */
import { createHash, randomBytes } from 'node:crypto'
import { SignJWT, exportJWK, generateKeyPair, importJWK, importPKCS8, jwtVerify, type JWK } from 'jose'
import type { Keys } from '../../keys'
import type { WireAuthResponse, WireUser } from '../../wire'
import { ConfigError } from '../../settings'
import type { Store } from '../store'
import { insertSigningKey, sealSigningKey, signingKey } from './repo'

export const ISSUER = 'portico'
export const ACCESS_TTL_S = 60 * 60
export const IDENTITY_TTL_S = 10 * 60 * 60
export const REFRESH_TTL_S = 30 * 24 * 60 * 60

export interface Signer {
  kid: string
  publicJwk: JWK
  privateKey: CryptoKey | Uint8Array
  publicKey: CryptoKey | Uint8Array
}

export const now = () => Math.floor(Date.now() / 1000)
export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex')
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url')

/**
 * The ES256 signing key: from JWT_PRIVATE_KEY (PKCS#8 PEM or a private JWK as JSON) or,
 * by default, generated once and stored in the DB so every process signs with the same key.
 * In the DB the private key is only kept sealed (JWE) with a key derived from the server
 * secret, which lives outside the database; a plain-text key left by an older version is
 * sealed on start-up.
 */
export async function loadSigner(store: Store, keys: Keys, envKey = process.env.JWT_PRIVATE_KEY): Promise<Signer> {
  if (envKey) {
    let jwk: JWK
    try {
      if (envKey.trim().startsWith('{')) jwk = JSON.parse(envKey)
      else {
        const k = await importPKCS8(envKey.replace(/\\n/g, '\n'), 'ES256', { extractable: true })
        jwk = await exportJWK(k)
      }
    } catch {
      throw new ConfigError(['JWT_PRIVATE_KEY: not a PKCS#8 PEM or a private JWK (JSON) of an ES256 key'])
    }
    const { d: _d, ...pub } = jwk
    const kid = jwk.kid ?? sha256(JSON.stringify({ x: pub.x, y: pub.y })).slice(0, 16)
    return fromJwks({ ...jwk, kid }, { ...pub, kid })
  }
  let r = await signingKey(store)
  if (!r) {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true })
    const kid = randomToken(12)
    const priv = { ...(await exportJWK(privateKey)), kid }
    const pub = { ...(await exportJWK(publicKey)), kid }
    await insertSigningKey(store, kid, await keys.seal(JSON.stringify(priv), 'signing-key'), pub, now())
    r = (await signingKey(store))!
  }
  if (!r.private_jwe && r.private_jwk) {
    await sealSigningKey(store, await keys.seal(JSON.stringify(r.private_jwk), 'signing-key'))
    return fromJwks(r.private_jwk as JWK, r.public_jwk as JWK)
  }
  let priv: JWK
  try {
    priv = JSON.parse(await keys.open(r.private_jwe!, 'signing-key'))
  } catch {
    throw new ConfigError([
      'PORTICO_SECRET: does not decrypt the signing key stored in the database (was the secret changed? restore it, or set JWT_PRIVATE_KEY)',
    ])
  }
  return fromJwks(priv, r.public_jwk as JWK)
}

async function fromJwks(priv: JWK, pub: JWK): Promise<Signer> {
  return {
    kid: pub.kid!,
    publicJwk: { ...pub, alg: 'ES256', use: 'sig' },
    privateKey: (await importJWK(priv, 'ES256')) as CryptoKey,
    publicKey: (await importJWK(pub, 'ES256')) as CryptoKey,
  }
}

export function signAccessToken(s: Signer, p: { userId: string; appId: string; sessionId: string }): Promise<string> {
  const iat = now()
  return new SignJWT({ sid: p.sessionId })
    .setProtectedHeader({ alg: 'ES256', kid: s.kid, typ: 'JWT' })
    .setSubject(p.userId)
    .setAudience(p.appId)
    .setIssuer(ISSUER)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TTL_S)
    .sign(s.privateKey)
}

export function signIdentityToken(
  s: Signer,
  p: { userId: string; appId: string; linkedAccounts: unknown[]; isGuest: boolean; createdAt: number },
): Promise<string> {
  const iat = now()
  return new SignJWT({
    linked_accounts: p.linkedAccounts,
    is_guest: p.isGuest,
    cr: p.createdAt,
  })
    .setProtectedHeader({ alg: 'ES256', kid: s.kid, typ: 'JWT' })
    .setSubject(p.userId)
    .setAudience(p.appId)
    .setIssuer(ISSUER)
    .setIssuedAt(iat)
    .setExpirationTime(iat + IDENTITY_TTL_S)
    .sign(s.privateKey)
}

export interface AccessClaims {
  sub: string
  aud: string
  sid: string
  exp: number
  iat: number
}

/** Verifies signature, issuer and audience; `allowExpired` for the refresh call's bearer. */
export async function verifyAccessToken(
  s: Signer,
  token: string,
  appId: string,
  opts: { allowExpired?: boolean } = {},
): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, s.publicKey, {
      issuer: ISSUER,
      audience: appId,
      algorithms: ['ES256'],
      requiredClaims: ['exp', 'iat', 'sub'],
      // A very large tolerance accepts an expired token whose signature is still good.
      clockTolerance: opts.allowExpired ? 10 * 365 * 24 * 3600 : 0,
    })
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null
    return payload as unknown as AccessClaims
  } catch {
    return null
  }
}

// ---------------------------------------------------------------- answers

/** What signs and seals: the store, the signer, the server keys. */
export interface Deps {
  store: Store
  signer: Signer
  keys: Keys
}

export async function authResponse(
  d: Deps,
  appId: string,
  user: WireUser,
  session: { sessionId: string; refreshToken: string; accessToken?: string },
  isNewUser: boolean,
): Promise<WireAuthResponse> {
  const token = session.accessToken ?? (await signAccessToken(d.signer, { userId: user.id, appId, sessionId: session.sessionId }))
  return {
    user,
    token,
    privy_access_token: token,
    refresh_token: session.refreshToken,
    identity_token: await identityToken(d, appId, user),
    session_update_action: 'set',
    is_new_user: isNewUser,
  }
}

/** Link, update, unlink and transfer answers: the user, a fresh identity token, tokens untouched. */
export async function userResponse(d: Deps, appId: string, user: WireUser): Promise<WireAuthResponse> {
  return {
    user,
    token: null,
    privy_access_token: null,
    refresh_token: null,
    identity_token: await identityToken(d, appId, user),
    session_update_action: 'ignore',
    is_new_user: false,
  }
}

export function identityToken(d: Deps, appId: string, user: WireUser) {
  return signIdentityToken(d.signer, {
    userId: user.id,
    appId,
    isGuest: user.is_guest,
    createdAt: user.created_at,
    linkedAccounts: user.linked_accounts.map(({ verified_at, first_verified_at, ...rest }) => rest),
  })
}
