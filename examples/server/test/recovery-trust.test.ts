/**
 * The trust claims of user-owned recovery (issue 14, 'Bad input and attacks'), proved with the
 * frame's own primitives against a real server and database:
 * - with `user-passcode`, the whole database, the server's recovery key AND its secret
 *   together still cannot rebuild the key (no pair of shares they reveal rebuilds the wallet);
 *   the password (a positive control, through the server's counted OPRF evaluation) can;
 *   (guessing the password offline is test/attacker/password.test.ts);
 * - with a cloud method, neither the drive's file nor the server alone can; both together can.
 * The frame handlers run in Node (WebCrypto, scrypt) with the server and the cloud-drive
 * stand-in on loopback ports.
 */
import { serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCloudDrive } from '../../stand-ins/cloud-drive/server'
import { FrameFailure, type FrameContext } from '../frame/context'
import { recoveryMethod } from '../frame/handlers/index'
import '../frame/handlers/recovery-passcode'
import '../frame/handlers/recovery-cloud'
import { HdRoot, generateEntropy } from '../frame/keys'
import { combineShares, shareFromString, shareToString, splitEntropy } from '../frame/shares'
import { deriveKeys } from '../src/keys'
import { AUTH_SHARE_PURPOSE, RECOVERY_SHARE_PURPOSE } from '../src/features/wallets/keys'
import { DEV_SECRET } from '../src/settings'
import type { Store } from '../src/core/store'
import { testDevice, type TestDevice } from './device-client'
import { DEMO, freePort, startTestServer, uniqueEmail, type TestServer, openTestStore } from './helpers'

const FRAME = 'http://127.0.0.1:48790'
const RECOVERY_KEY = 'test-recovery-key-kept-outside-the-database-0021'

let store: Store
let s: TestServer
let drive: ReturnType<typeof createCloudDrive>
let closeDrive: () => Promise<void>

beforeAll(async () => {
  store = await openTestStore()
  const port = await freePort()
  const driveUrl = `http://127.0.0.1:${port}`
  drive = createCloudDrive({ origin: driveUrl })
  const server = serve({ fetch: drive.app.fetch, port, hostname: '127.0.0.1' })
  await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())))
  closeDrive = () => new Promise<void>((r) => server.close(() => r()))
  process.env.PORTICO_CLOUD_DRIVE_BASE_URL = driveUrl
  s = await startTestServer(store, { wallets: { frameOrigin: FRAME, recoveryKey: RECOVERY_KEY } })
  device = testDevice(s)
})
afterAll(async () => {
  await s?.close()
  await closeDrive?.()
  await store?.close()
})

/** The user's wallet frame: its device proves every call (issue 26). */
let device: TestDevice

/** The frame's view of the server (the frame's own API client, with the device's proofs). */
function frameCtx(token: string, entropyId: string): FrameContext & { entropyId: string; accessToken: string } {
  return { ...device.ctx(), entropyId, accessToken: token }
}

async function login() {
  const r = await s.emailLogin(uniqueEmail('trust'))
  expect(r.status).toBe(200)
  return r.body.token as string
}

/** What the frame does on create with a user-owned method. */
async function createWith(token: string, method: 'user-passcode' | 'google-drive', input: Record<string, unknown>) {
  const entropy = generateEntropy()
  const root = await HdRoot.fromEntropy(entropy)
  const shares = await splitEntropy(entropy)
  const entropyId = root.ethereum(0).address
  const ctx = frameCtx(token, entropyId)
  const sealed = await recoveryMethod(method).seal(shares.recovery, { recoveryMethod: method, ...input }, ctx)
  const res = await device.call('/api/v1/wallets/create', token, {
    entropy_id: entropyId,
    entropy_id_verifier: 'ethereum-address-verifier',
    auth_share: shareToString(shares.auth),
    recovery_method: method,
    recovery_share: sealed.recoveryShare,
    recovery_meta: sealed.recoveryMeta,
    wallets: [{ address: entropyId, chain_type: 'ethereum', wallet_index: 0 }],
  })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return { entropy, root, shares, entropyId, ctx, sealed }
}

/** Every string in the database: all tables, all rows, all columns (JSON flattened). */
async function everyStringInTheDatabase(): Promise<string[]> {
  const tables = await store.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")
  const out: string[] = []
  const walk = (v: unknown) => {
    if (typeof v === 'string') {
      out.push(v)
      if (/^[{[]/.test(v)) {
        try {
          walk(JSON.parse(v))
        } catch {}
      }
    } else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x)
  }
  for (const t of tables) walk(await store.query(`SELECT * FROM "${t.table_name}"`))
  return out
}

/**
 * The attacker: the database plus the server's recovery key and secret. Opens everything
 * those keys open (sealed auth shares, privy recovery shares), collects every value that
 * decodes to a share, and tries every pair.
 */
async function attackerRebuilds(address: string): Promise<boolean> {
  const secretKeys = deriveKeys(DEV_SECRET)
  const recoveryKeys = deriveKeys(RECOVERY_KEY)
  const candidates = new Set<string>()
  for (const v of await everyStringInTheDatabase()) {
    candidates.add(v)
    for (const [keys, purpose] of [
      [secretKeys, AUTH_SHARE_PURPOSE],
      [recoveryKeys, RECOVERY_SHARE_PURPOSE],
    ] as const) {
      try {
        const plain = await keys.open(v, purpose)
        candidates.add(plain)
        for (const part of plain.split('|')) candidates.add(part)
      } catch {}
    }
  }
  const shares: Uint8Array[] = []
  for (const c of candidates) {
    if (!/^[A-Za-z0-9+/]{20,32}={0,2}$/.test(c)) continue
    try {
      const b = shareFromString(c)
      if (b.length === 17) shares.push(b)
    } catch {}
  }
  expect(shares.length).toBeGreaterThan(0)
  for (let i = 0; i < shares.length; i++) {
    for (let j = i + 1; j < shares.length; j++) {
      try {
        const root = await HdRoot.fromEntropy(await combineShares(shares[i], shares[j]))
        if (root.ethereum(0).address === address) return true
      } catch {}
    }
  }
  return false
}

describe('the attacker is real', () => {
  it('with privy (automatic) recovery, the database plus the recovery key DO rebuild the key', async () => {
    const token = await login()
    const entropy = generateEntropy()
    const root = await HdRoot.fromEntropy(entropy)
    const shares = await splitEntropy(entropy)
    const entropyId = root.ethereum(0).address
    const res = await device.call('/api/v1/wallets/create', token, {
      entropy_id: entropyId,
      entropy_id_verifier: 'ethereum-address-verifier',
      auth_share: shareToString(shares.auth),
      recovery_method: 'privy',
      recovery_share: shareToString(shares.recovery),
      wallets: [{ address: entropyId, chain_type: 'ethereum', wallet_index: 0 }],
    })
    expect(res.status).toBe(200)
    expect(await attackerRebuilds(entropyId)).toBe(true)
  })
})

// scrypt N=2^17 (128 MiB) per seal and open: 26 s for one test on a 2-core machine at load 20.
describe('user-passcode', { timeout: 180_000 }, () => {
  it('the database, the recovery key and the server secret together cannot rebuild the key; the password can', async () => {
    const token = await login()
    const w = await createWith(token, 'user-passcode', { recoveryPassword: 'correct-horse-battery' })
    // The server keeps the sealed share and public parameters (v2: scrypt, then its OPRF), never the password or the share.
    const row = (await store.query<{ recovery_share: string; recovery_meta: Record<string, unknown> }>('SELECT recovery_share, recovery_meta FROM embedded_wallet_roots WHERE entropy_id = $1', [w.entropyId]))[0]
    expect(row.recovery_meta).toMatchObject({ v: 2, kdf: 'scrypt', N: 131072, r: 8, p: 1, oprf: 'ristretto255-SHA512' })
    expect(row.recovery_share).not.toContain(shareToString(w.shares.recovery))
    const all = (await everyStringInTheDatabase()).join('\n')
    expect(all).not.toContain('correct-horse-battery')
    expect(all).not.toContain(shareToString(w.shares.recovery))
    expect(await attackerRebuilds(w.entropyId)).toBe(false)
    // Positive control: the password opens the stored share, which with the auth share rebuilds the wallet.
    const stored = { recoveryShare: row.recovery_share, recoveryMeta: row.recovery_meta }
    const share = await recoveryMethod('user-passcode').open(stored, { recoveryMethod: 'user-passcode', recoveryPassword: 'correct-horse-battery' }, w.ctx)
    const auth = await device.call('/api/v1/wallets/auth_share', token, { entropy_id: w.entropyId })
    expect(auth.status).toBe(200)
    const root = await HdRoot.fromEntropy(await combineShares(share, shareFromString(auth.body.share)))
    expect(root.ethereum(0).address).toBe(w.entropyId)
  })

  it("a wrong password is 'Invalid recovery password, please try again.' (invalid_recovery_pin)", async () => {
    const token = await login()
    const w = await createWith(token, 'user-passcode', { recoveryPassword: 'right-password' })
    const err = await recoveryMethod('user-passcode')
      .open(w.sealed, { recoveryMethod: 'user-passcode', recoveryPassword: 'wrong-password' }, w.ctx)
      .catch((e) => e)
    expect(err).toBeInstanceOf(FrameFailure)
    expect(err).toMatchObject({ type: 'invalid_recovery_pin', message: 'Invalid recovery password, please try again.' })
  })

  it('refuses to seal a password the rules refuse', async () => {
    const token = await login()
    const ctx = frameCtx(token, '0x0000000000000000000000000000000000000001')
    const share = new Uint8Array(17)
    await expect(recoveryMethod('user-passcode').seal(share, { recoveryMethod: 'user-passcode', recoveryPassword: 'abc' }, ctx)).rejects.toMatchObject({
      message: 'Password must be at least 6 characters',
    })
    await expect(recoveryMethod('user-passcode').seal(share, { recoveryMethod: 'user-passcode', recoveryPassword: 'abc def' }, ctx)).rejects.toMatchObject({
      message: 'Invalid characters used ( SPACE )',
    })
  })
})

describe('google-drive', () => {
  async function driveToken(): Promise<string> {
    // The stand-in's documented flow, without the server: authorize (consent POST) then token.
    const { createHash, randomBytes } = await import('node:crypto')
    const verifier = randomBytes(36).toString('base64url')
    const base = process.env.PORTICO_CLOUD_DRIVE_BASE_URL!
    const form = new URLSearchParams({
      response_type: 'code',
      client_id: 'portico-local-google-drive',
      redirect_uri: 'http://localhost:5173/cb',
      scope: 'https://www.googleapis.com/auth/drive.appdata',
      state: 'state-0123456789abcdef',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      login_hint: `u${randomBytes(6).toString('hex')}`,
      decision: 'allow',
    })
    const res = await fetch(`${base}/google/o/oauth2/v2/auth`, { method: 'POST', body: form, redirect: 'manual' })
    const code = new URL(res.headers.get('location')!).searchParams.get('code')!
    const tok = await fetch(`${base}/google/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: 'http://localhost:5173/cb', client_id: 'portico-local-google-drive', client_secret: 'local-stand-in-secret', code_verifier: verifier }),
    })
    return (await tok.json()).access_token
  }

  it('the drive alone and the server alone cannot rebuild; together they can', async () => {
    const token = await login()
    const recoveryAccessToken = await driveToken()
    const w = await createWith(token, 'google-drive', { recoveryAccessToken })
    // The server keeps a marker and the file id; the drive keeps the sealed share.
    expect(w.sealed.recoveryShare).toBe('cloud:google-drive')
    const file = drive.inspect.files().find((f) => f.id === w.sealed.recoveryMeta?.fileId)!
    expect(file.name).toContain(w.entropyId.toLowerCase())
    expect(file.content).not.toContain(shareToString(w.shares.recovery))
    // The server alone (database + recovery key + secret): no pair rebuilds the wallet.
    expect(await attackerRebuilds(w.entropyId)).toBe(false)
    // The drive alone: one sealed share and no key. Together (the frame's recovery): the wallet.
    const share = await recoveryMethod('google-drive').open({ recoveryShare: 'cloud:google-drive', recoveryMeta: w.sealed.recoveryMeta }, { recoveryMethod: 'google-drive', recoveryAccessToken }, w.ctx)
    expect(shareToString(share)).toBe(shareToString(w.shares.recovery))
    // Another drive account (a token of another user) finds no file.
    const other = await driveToken()
    await expect(
      recoveryMethod('google-drive').open({ recoveryShare: 'cloud:google-drive', recoveryMeta: w.sealed.recoveryMeta }, { recoveryMethod: 'google-drive', recoveryAccessToken: other }, w.ctx),
    ).rejects.toMatchObject({ message: 'Unable to recover wallet' })
  })
})
