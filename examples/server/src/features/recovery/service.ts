/** The recovery providers (Google Drive, iCloud): their endpoints and the key that seals a cloud-kept share. */
import type { ServerCtx } from '../../core/context'

export const REAL = {
  authorize: 'https://accounts.google.com/o/oauth2/v2/auth',
  token: 'https://oauth2.googleapis.com/token',
  cloudkit: 'https://api.apple-cloudkit.com',
}

export interface RecoveryProviders {
  google: { authorize: string; token: string; clientId: string; clientSecret: string } | null
  icloud: { base: string; container: string; environment: string; apiToken: string } | null
}

/** Google's and CloudKit's endpoints and credentials from the environment (read per request). */
export function recoveryProviders(env: Record<string, string | undefined> = process.env): RecoveryProviders {
  const base = env.PORTICO_CLOUD_DRIVE_BASE_URL?.replace(/\/+$/, '')
  const local = !!base
  const clientId = env.PORTICO_RECOVERY_GOOGLE_CLIENT_ID ?? (local ? 'portico-local-google-drive' : undefined)
  const clientSecret = env.PORTICO_RECOVERY_GOOGLE_CLIENT_SECRET ?? (local ? 'local-stand-in-secret' : undefined)
  const apiToken = env.PORTICO_CLOUDKIT_API_TOKEN ?? (local ? 'local-stand-in-cloudkit-api-token' : undefined)
  const container = env.PORTICO_CLOUDKIT_CONTAINER ?? (local ? 'iCloud.dev.portico.recovery' : undefined)
  return {
    google:
      clientId && clientSecret
        ? {
            authorize: base ? `${base}/google${new URL(REAL.authorize).pathname}` : REAL.authorize,
            token: base ? `${base}/google${new URL(REAL.token).pathname}` : REAL.token,
            clientId,
            clientSecret,
          }
        : null,
    icloud:
      apiToken && container
        ? { base: base ? `${base}/icloud` : REAL.cloudkit, container, environment: env.PORTICO_CLOUDKIT_ENVIRONMENT ?? (local ? 'development' : 'production'), apiToken }
        : null,
  }
}

/** Where the wallet frame reads and writes the user's drive (the frame's CSP allows these origins). */
export function cloudEndpoints(p: RecoveryProviders) {
  const base = p.google ? new URL(p.google.token).origin : null
  const local = p.google && !p.google.token.startsWith(REAL.token)
  return {
    google: p.google
      ? {
          files: local ? `${base}/google/drive/v3/files` : 'https://www.googleapis.com/drive/v3/files',
          upload: local ? `${base}/google/upload/drive/v3/files` : 'https://www.googleapis.com/upload/drive/v3/files',
        }
      : null,
    // CloudKit's API token is the web client's (CloudKit JS ships it to browsers); the web auth token is the user's.
    icloud: p.icloud ? { base: p.icloud.base, container: p.icloud.container, environment: p.icloud.environment, apiToken: p.icloud.apiToken } : null,
  }
}

/** The origins the wallet frame's CSP must allow for cloud recovery (connect-src). */
export function cloudDriveOrigins(env: Record<string, string | undefined> = process.env): string[] {
  const e = cloudEndpoints(recoveryProviders(env))
  return [...new Set([e.google?.files, e.google?.upload, e.icloud?.base].filter((u): u is string => !!u).map((u) => new URL(u).origin))]
}

/** The per-wallet key of the cloud blob: a keyed hash (HMAC-SHA256 under a subkey of PORTICO_SECRET), hex. */
export function cloudKey(ctx: Pick<ServerCtx, 'keys'>, appId: string, userId: string, entropyId: string): string {
  return ctx.keys.codeHash(['portico cloud recovery key v1', appId, userId, entropyId])
}
