/**
 * A tiny custom-auth issuer for the demo: it plays the host app's own auth server and signs
 * short ES256 JWTs whose `sub` becomes the custom_auth account id. The key pair below is a
 * PUBLIC DEMO KEY (committed on purpose): apps.json's demo app trusts its public half.
 * Never use it outside development.
 *
 *   npx tsx examples/server/src/dev-issuer.ts alice   # prints a token for user "alice"
 *   GET /dev/custom-token?user=alice                  # same, dev mode only
 */
import { SignJWT, importJWK, type JWK } from 'jose'

export const DEV_ISSUER = 'portico-dev-issuer'
export const DEV_AUDIENCE = 'portico-demo'

export const DEV_ISSUER_PRIVATE_JWK: JWK = {
  kty: 'EC',
  crv: 'P-256',
  x: '5uVL0hn2rZdTpt-Hl5609wJsLZUR0g7aMA3AgB4W-X4',
  y: 'XEYzQINhU451Tr6xbKiNJSt57H3sFwHtKHku9wUiYbI',
  d: '_1moxdBSWoTZtEg4Fv0STokXxhLWNW1zyc5en2ODC1U',
  kid: 'portico-dev-issuer-1',
  alg: 'ES256',
}

export const DEV_ISSUER_PUBLIC_JWK: JWK = (({ d: _d, ...pub }) => pub)(DEV_ISSUER_PRIVATE_JWK)

export async function issueDevToken(user: string, ttlS = 600): Promise<string> {
  const key = await importJWK(DEV_ISSUER_PRIVATE_JWK, 'ES256')
  const t = Math.floor(Date.now() / 1000)
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: DEV_ISSUER_PRIVATE_JWK.kid })
    .setSubject(user)
    .setIssuer(DEV_ISSUER)
    .setAudience(DEV_AUDIENCE)
    .setIssuedAt(t)
    .setExpirationTime(t + ttlS)
    .sign(key)
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  issueDevToken(process.argv[2] ?? 'alice').then((t) => console.log(t))
}
