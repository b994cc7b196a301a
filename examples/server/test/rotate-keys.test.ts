/**
 * Keys at rest (issue 26), end to end with the server process:
 * - production refuses to start without a recovery key of its own (missing, equal to
 *   PORTICO_SECRET, or derived from it), with a clear start-up error;
 * - `main.ts rotate-keys` re-wraps every sealed record (signing key, auth shares, privy recovery
 *   shares, password OPRF keys, TOTP secrets) from the old keys to the new ones, reports counts,
 *   is idempotent; afterwards the server runs with the new keys only and the old keys open nothing.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeJwt } from 'jose'
import { type FrameContext } from '../frame/context'
import { recoveryMethod } from '../frame/handlers/index'
import { HdRoot, generateEntropy } from '../frame/keys'
import { combineShares, shareFromString, shareToString, splitEntropy } from '../frame/shares'
import { deriveKeys } from '../src/keys'
import { derivedRecoveryKey } from '../src/features/wallets/keys'
import { openStore, type Store } from '../src/core/store'
import { insertStepUpGrant } from '../src/features/wallets/custody'
import { testDevice, type TestDevice } from './device-client'
import { DEMO, migratedPgliteDir, startServerProcess, startTestServer, uniqueEmail, type TestServer } from './helpers'

const MAIN = new URL('../src/main.ts', import.meta.url).pathname
const FRAME = 'http://127.0.0.1:48794'
const OLD_SECRET = 'old-server-secret-0123456789abcdef-rotation'
const NEW_SECRET = 'new-server-secret-0123456789abcdef-rotation'
const OLD_RECOVERY = 'old-recovery-key-0123456789abcdef-rotation'
const NEW_RECOVERY = 'new-recovery-key-0123456789abcdef-rotation'

describe('production start-up refuses a missing or secret-derived recovery key', { timeout: 240_000 }, () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'portico-keys-'))
    // An app with no code delivery to configure: only the recovery key decides.
    writeFileSync(join(dir, 'apps.json'), JSON.stringify({ apps: [{ id: 'portico-test-keys-0000001', name: 'K', loginMethods: ['wallet'], allowedOrigins: ['http://localhost:5173'] }] }))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const prod = (extra: Record<string, string>) =>
    startServerProcess({ PORTICO_DEV: '0', PORTICO_SECRET: OLD_SECRET, DATA_DIR: join(dir, 'data'), APPS_FILE: join(dir, 'apps.json'), PORTICO_FRAME_PORT: '0', ...extra })

  it('no PORTICO_RECOVERY_KEY: exits with a clear configuration error', async () => {
    await expect(prod({})).rejects.toThrow(/PORTICO_RECOVERY_KEY: required outside development mode/)
  })
  it('PORTICO_RECOVERY_KEY equal to PORTICO_SECRET, or the key derived from it: refused', async () => {
    await expect(prod({ PORTICO_RECOVERY_KEY: OLD_SECRET })).rejects.toThrow(/must not be PORTICO_SECRET nor derived from it/)
    await expect(prod({ PORTICO_RECOVERY_KEY: derivedRecoveryKey(OLD_SECRET) })).rejects.toThrow(/must not be PORTICO_SECRET nor derived from it/)
    const file = join(dir, 'recovery.key')
    writeFileSync(file, `${OLD_SECRET}\n`)
    await expect(prod({ PORTICO_RECOVERY_KEY_FILE: file })).rejects.toThrow(/must not be PORTICO_SECRET nor derived from it/)
  })
  it('a recovery key of its own: the server starts', async () => {
    await migratedPgliteDir(join(dir, 'data'))
    const p = await prod({ PORTICO_RECOVERY_KEY: NEW_RECOVERY })
    try {
      expect((await fetch(`${p.base}/health/ready`)).status).toBe(200)
    } finally {
      p.proc.kill('SIGTERM')
      await p.exited
    }
  })
})

/** Runs `main.ts rotate-keys`; resolves with the exit code and the report line. */
function rotate(env: Record<string, string>): Promise<{ code: number | null; report: any; out: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', MAIN, 'rotate-keys'], {
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'info', PORTICO_DEV: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  proc.stdout!.on('data', (d) => (out += d))
  proc.stderr!.on('data', (d) => (out += d))
  return new Promise((resolve) =>
    proc.once('close', (code) => {
      const line = out.split('\n').find((l) => l.includes('"tables"'))
      resolve({ code, report: line ? JSON.parse(line) : null, out })
    }),
  )
}

describe('rotate-keys', { timeout: 600_000 }, () => {
  let dir: string
  let store: Store | null = null
  afterAll(async () => {
    await store?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  /** The frame on `device`: its real API (a device proof and a fresh nonce on every call). */
  const frameCtx = (device: TestDevice, token: string, entropyId: string): FrameContext & { entropyId: string; accessToken: string } => ({ ...device.ctx(), entropyId, accessToken: token })

  /** The same browser after the restart: its device key (kept by the frame) talking to the new server. */
  async function sameDevice(old: TestDevice, s: TestServer): Promise<TestDevice> {
    const d = testDevice(s)
    const key = `device-signing:${DEMO}`
    await d.store.put('keys', key, await old.store.get('keys', key))
    expect(await d.id()).toBe(await old.id())
    return d
  }

  /** A wallet created from the user's own wallet device (as the frame creates it). */
  async function create(device: TestDevice, token: string, method: 'privy' | 'user-passcode') {
    const entropy = generateEntropy()
    const root = await HdRoot.fromEntropy(entropy)
    const shares = await splitEntropy(entropy)
    const entropyId = root.ethereum(0).address
    const sealed =
      method === 'privy'
        ? { recoveryShare: shareToString(shares.recovery), recoveryMeta: undefined }
        : await recoveryMethod('user-passcode').seal(shares.recovery, { recoveryMethod: 'user-passcode', recoveryPassword: 'rotate-me-not' }, frameCtx(device, token, entropyId))
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
    return { entropyId, shares, sealed }
  }

  it('re-wraps every sealed record to the new keys (counts reported, idempotent); the server then runs on the new keys alone', async () => {
    dir = mkdtempSync(join(tmpdir(), 'portico-rotate-'))
    const dataDir = await migratedPgliteDir(join(dir, 'data'))
    // 1. Records sealed under the old keys.
    store = await openStore({ dataDir })
    let s = await startTestServer(store, { secret: OLD_SECRET, wallets: { frameOrigin: FRAME, recoveryKey: OLD_RECOVERY } })
    const email = uniqueEmail('rot')
    const token = (await s.emailLogin(email)).body.token as string
    // Each user's own browser (wallet device).
    const device1 = testDevice(s)
    const privy = await create(device1, token, 'privy')
    const token2 = (await s.emailLogin(uniqueEmail('rot'))).body.token as string
    const device2 = testDevice(s)
    const pass = await create(device2, token2, 'user-passcode')
    // A third user with an authenticator app (its TOTP secret sealed under the old secret).
    const userId = (await s.emailLogin(uniqueEmail('rot'))).body.user!.id
    await store.query(`INSERT INTO mfa_methods (user_id, type, data, verified_at) VALUES ($1, 'totp', $2, 1)`, [
      userId,
      JSON.stringify({ secret: await deriveKeys(OLD_SECRET).seal('JBSWY3DPEHPK3PXP', 'mfa-totp-secret') }),
    ])
    await s.close()
    await store.close()
    store = null

    // 2. Rotate: new keys current, old keys previous.
    const env = { DATA_DIR: dataDir, PORTICO_SECRET: NEW_SECRET, PORTICO_SECRET_PREVIOUS: OLD_SECRET, PORTICO_RECOVERY_KEY: NEW_RECOVERY, PORTICO_RECOVERY_KEY_PREVIOUS: OLD_RECOVERY }
    const first = await rotate(env)
    expect(first.code, first.out).toBe(0)
    expect(first.report.tables).toMatchObject({
      'signing_keys.private_jwe': { rewrapped: 1, unreadable: 0 },
      'embedded_wallet_roots.auth_share': { rewrapped: 2, unreadable: 0 },
      'embedded_wallet_roots.recovery_share (privy)': { rewrapped: 1, unreadable: 0 },
      'wallet_password_oprf.oprf_key': { rewrapped: 1, unreadable: 0 },
      'mfa_methods.data.secret (totp)': { rewrapped: 1, unreadable: 0 },
    })
    expect(first.report.unreadable).toBe(0)
    // The report holds counts and key ids, never a key.
    for (const k of [OLD_SECRET, NEW_SECRET, OLD_RECOVERY, NEW_RECOVERY]) expect(first.out).not.toContain(k)
    const again = await rotate(env)
    expect(again.code, again.out).toBe(0)
    expect(again.report.rewrapped).toBe(0)
    // Without the old keys, a record still under them would be reported unreadable: none is.
    const noOld = await rotate({ DATA_DIR: dataDir, PORTICO_SECRET: NEW_SECRET, PORTICO_RECOVERY_KEY: NEW_RECOVERY })
    expect(noOld.code, noOld.out).toBe(0)
    expect(noOld.report.unreadable).toBe(0)

    // 3. Every sealed record names the new keys; the old keys open none of them.
    store = await openStore({ dataDir })
    const sec = deriveKeys(NEW_SECRET)
    const rec = deriveKeys(NEW_RECOVERY)
    const roots = await store.query<{ auth_share: string; recovery_share: string; recovery_method: string }>('SELECT auth_share, recovery_share, recovery_method FROM embedded_wallet_roots')
    for (const r of roots) {
      expect(sec.kidOf(r.auth_share)).toBe(sec.kid)
      await expect(deriveKeys(OLD_SECRET).open(r.auth_share, 'wallet-auth-share')).rejects.toBeTruthy()
      if (r.recovery_method === 'privy') {
        expect(rec.kidOf(r.recovery_share)).toBe(rec.kid)
        await expect(deriveKeys(OLD_RECOVERY).open(r.recovery_share, 'wallet-recovery-share')).rejects.toBeTruthy()
      }
    }
    const oprf = await store.query<{ oprf_key: string }>('SELECT oprf_key FROM wallet_password_oprf')
    expect(oprf.map((o) => rec.kidOf(o.oprf_key))).toEqual([rec.kid])

    // 4. The server on the new keys only: login (signing key), the privy wallet's two shares, the password wallet.
    s = await startTestServer(store, { secret: NEW_SECRET, wallets: { frameOrigin: FRAME, recoveryKey: NEW_RECOVERY } })
    try {
      const t1 = (await s.emailLogin(email)).body.token as string
      expect(t1).toBeTruthy()
      // The user's registered device, on the new session.
      const d1 = await sameDevice(device1, s)
      const auth = await d1.call('/api/v1/wallets/auth_share', t1, { entropy_id: privy.entropyId })
      expect(auth.status, JSON.stringify(auth.body)).toBe(200)
      // privy's recovery share after a step-up on this device (what /wallets/step_up/verify records after the e-mailed code).
      const { sub, sid } = decodeJwt(t1) as { sub: string; sid: string }
      await insertStepUpGrant(store!, { appId: DEMO, userId: sub, sessionId: sid, deviceId: await d1.id(), entropyId: privy.entropyId }, 'email')
      const rs = await d1.call('/api/v1/wallets/recovery_share', t1, { entropy_id: privy.entropyId })
      expect(rs.status, JSON.stringify(rs.body)).toBe(200)
      const root = await HdRoot.fromEntropy(await combineShares(shareFromString(auth.body.share), shareFromString(rs.body.recovery_share)))
      expect(root.ethereum(0).address).toBe(privy.entropyId)
      // The password wallet: the OPRF key is the same key, re-wrapped: the password still opens the share.
      const share = await recoveryMethod('user-passcode').open(pass.sealed, { recoveryMethod: 'user-passcode', recoveryPassword: 'rotate-me-not' }, frameCtx(await sameDevice(device2, s), token2, pass.entropyId))
      expect(shareToString(share)).toBe(shareToString(pass.shares.recovery))
    } finally {
      await s.close()
    }
  })
})
