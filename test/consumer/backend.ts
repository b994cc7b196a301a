/**
 * A host backend as the README's 'Verify users on your backend' writes it, type-checked by
 * test/consumer/consumer.test.ts against the packed tarball (bundler and node16).
 */
import { PorticoServerError, getUser, verifyAccessToken, verifyIdentityToken, type VerifiedAccessToken } from 'portico/server'

const appId = 'your-app-id-of-25-chars..'
const apiUrl = 'https://auth.example.com'

export async function requireUser(authorization: string | undefined): Promise<VerifiedAccessToken | { status: 401; error: string }> {
  try {
    return await verifyAccessToken(authorization?.replace(/^Bearer /i, '') ?? '', { appId, apiUrl })
  } catch (err) {
    if (err instanceof PorticoServerError) return { status: 401, error: err.code }
    throw err
  }
}

export async function profile(identityToken: string, appSecret: string) {
  const claims = await verifyIdentityToken(identityToken, { appId, apiUrl })
  const user = await getUser(claims.userId, { appId, appSecret, apiUrl })
  const email: string | undefined = claims.linkedAccounts.find((a) => a.type === 'email')?.address as string | undefined
  return { id: user.id, email, guest: claims.isGuest, mfa: user.mfa_methods.map((m) => m.type) }
}
