import { createHash, randomBytes } from 'node:crypto'
import { SignJWT, exportJWK, generateKeyPair, importJWK, importPKCS8, jwtVerify, type JWK } from 'jose'
import type { Keys } from './keys'
import { ConfigError } from './settings'
import type { Store } from './store'

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
  type Row = { kid: string; private_jwk: JWK | null; private_jwe: string | null; public_jwk: JWK }
  const select = () => store.query<Row>("SELECT kid, private_jwk, private_jwe, public_jwk FROM signing_keys WHERE name = 'default'")
  let rows = await select()
  if (!rows.length) {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true })
    const kid = randomToken(12)
    const priv = { ...(await exportJWK(privateKey)), kid }
    const pub = { ...(await exportJWK(publicKey)), kid }
    await store.query(
      "INSERT INTO signing_keys (name, kid, private_jwe, public_jwk, created_at) VALUES ('default', $1, $2, $3, $4) ON CONFLICT (name) DO NOTHING",
      [kid, await keys.seal(JSON.stringify(priv), 'signing-key'), JSON.stringify(pub), now()],
    )
    rows = await select()
  }
  const r = rows[0]
  if (!r.private_jwe && r.private_jwk) {
    await store.query("UPDATE signing_keys SET private_jwe = $1, private_jwk = NULL WHERE name = 'default'", [
      await keys.seal(JSON.stringify(r.private_jwk), 'signing-key'),
    ])
    return fromJwks(r.private_jwk, r.public_jwk)
  }
  let priv: JWK
  try {
    priv = JSON.parse(await keys.open(r.private_jwe!, 'signing-key'))
  } catch {
    throw new ConfigError([
      'PORTICO_SECRET: does not decrypt the signing key stored in the database (was the secret changed? restore it, or set JWT_PRIVATE_KEY)',
    ])
  }
  return fromJwks(priv, r.public_jwk)
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
