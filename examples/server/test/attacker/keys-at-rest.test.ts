/**
 * Attacker claims about keys at rest (issue 26, 'Keys at rest' and 'Drive token'), on every
 * target (PGlite, and PostgreSQL where installed). The README's threat model cites these names.
 */
import { createHash, randomBytes } from 'node:crypto'
import { serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCloudDrive } from '../../../stand-ins/cloud-drive/server'
import { type FrameContext } from '../../frame/context'
import { recoveryMethod } from '../../frame/handlers/index'
import { cloudContext } from '../../frame/handlers/recovery-cloud'
import { HdRoot, generateEntropy } from '../../frame/keys'
import { open } from '../../frame/seal'
import { combineShares, shareFromString, shareToString, splitEntropy } from '../../frame/shares'
import { createServer } from '../../src/app'
import { deriveKeys } from '../../src/keys'
import { rotateKeys } from '../../src/rotate-keys'
import { cloudKey } from '../../src/features/recovery/service'
import { AUTH_SHARE_PURPOSE, RECOVERY_SHARE_PURPOSE, derivedRecoveryKey } from '../../src/features/wallets/keys'
import { DEV_SECRET } from '../../src/settings'
import { testDevice, type TestDevice } from '../device-client'
import { DEMO, ORIGIN, freePort, memoryProviders, uniqueEmail, type TestServer } from '../helpers'
import { RECOVERY_KEY, startTargets, type Target } from './harness'

let targets: Target[] = []
let drive: ReturnType<typeof createCloudDrive>
let closeDrive: () => Promise<void>
beforeAll(async () => {
  const port = await freePort()
  const driveUrl = `http://127.0.0.1:${port}`
  drive = createCloudDrive({ origin: driveUrl })
  const server = serve({ fetch: drive.app.fetch, port, hostname: '127.0.0.1' })
  await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())))
  closeDrive = () => new Promise<void>((r) => server.close(() => r()))
  process.env.PORTICO_CLOUD_DRIVE_BASE_URL = driveUrl
  targets = await startTargets()
}, 180_000)
afterAll(async () => {
  for (const t of targets) await t.close()
  await closeDrive?.()
})

type Ctx = FrameContext & { entropyId: string; accessToken: string }
/** The frame on `device`: its real API (a device proof and a fresh nonce on every call). */
const frameCtx = (device: TestDevice, token: string, entropyId: string): Ctx => ({ ...device.ctx(), origin: ORIGIN, entropyId, accessToken: token })

/** A user's wallet, created from the user's own wallet device (as the frame creates it). */
async function create(t: Target, method: 'privy' | 'google-drive', input: Record<string, unknown> = {}) {
  const token = (await t.s.emailLogin(uniqueEmail('atk-keys'))).body.token as string
  const device = testDevice(t.s)
  const entropy = generateEntropy()
  const root = await HdRoot.fromEntropy(entropy)
  const shares = await splitEntropy(entropy)
  const entropyId = root.ethereum(0).address
  const sealed =
    method === 'privy'
      ? { recoveryShare: shareToString(shares.recovery), recoveryMeta: undefined }
      : await recoveryMethod(method).seal(shares.recovery, { recoveryMethod: method, ...input }, frameCtx(device, token, entropyId))
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
  const userId = (await t.store.query<{ user_id: string }>('SELECT user_id FROM embedded_wallet_roots WHERE entropy_id = $1', [entropyId]))[0].user_id
  return { token, entropyId, userId, sealed }
}

/** Every string in the target's database (all tables, JSON flattened). */
async function dump(t: Target): Promise<string[]> {
  const tables = await t.store.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")
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
  for (const x of tables) walk(await t.store.query(`SELECT * FROM "${x.table_name}"`))
  return out
}

/** The shares a dump opened with `secrets` holds (every JWE tried under every purpose). */
async function sharesFrom(strings: string[], secrets: string[]): Promise<Uint8Array[]> {
  const candidates = new Set<string>(strings)
  for (const v of strings) {
    for (const s of secrets) {
      for (const purpose of [AUTH_SHARE_PURPOSE, RECOVERY_SHARE_PURPOSE]) {
        try {
          for (const part of (await deriveKeys(s).open(v, purpose)).split('|')) candidates.add(part)
        } catch {}
      }
    }
  }
  const out: Uint8Array[] = []
  for (const c of candidates) {
    if (!/^[A-Za-z0-9+/]{20,32}={0,2}$/.test(c)) continue
    try {
      const b = shareFromString(c)
      if (b.length === 17) out.push(b)
    } catch {}
  }
  return out
}

async function anyPairRebuilds(shares: Uint8Array[], address: string): Promise<boolean> {
  for (let i = 0; i < shares.length; i++) {
    for (let j = i + 1; j < shares.length; j++) {
      try {
        if ((await HdRoot.fromEntropy(await combineShares(shares[i], shares[j]))).ethereum(0).address === address) return true
      } catch {}
    }
  }
  return false
}

/** A Drive token through the server's own exchange (what the operator's server sees). */
async function driveTokenThroughServer(s: TestServer, token: string): Promise<string> {
  const verifier = randomBytes(36).toString('base64url')
  const state = randomBytes(24).toString('base64url')
  const init = await s.call('/api/v1/recovery/oauth/init', {
    token,
    body: { redirect_to: `${ORIGIN}/?portico_recovery_popup=1`, code_challenge: createHash('sha256').update(verifier).digest('base64url'), state_code: state },
  })
  const u = new URL(init.body.url)
  const form = new URLSearchParams(u.searchParams)
  form.set('login_hint', `u${randomBytes(6).toString('hex')}`)
  form.set('decision', 'allow')
  const consent = await fetch(u.origin + u.pathname, { method: 'POST', body: form, redirect: 'manual' })
  const cb = await fetch(consent.headers.get('location')!, { redirect: 'manual' })
  const code = new URL(cb.headers.get('location')!).searchParams.get('privy_oauth_code')!
  const a = await s.call('/api/v1/recovery/oauth/authenticate', { token, body: { authorization_code: code, state_code: state, code_verifier: verifier, provider: 'google-drive' } })
  expect(a.status).toBe(200)
  return a.body.access_token
}

describe('attacker: keys at rest', { timeout: 600_000 }, () => {
  it('production refuses to start without a recovery key, or with PORTICO_SECRET or a key derived from it as the recovery key', async () => {
    for (const t of targets) {
      const p = memoryProviders()
      const base = { store: t.store, dev: false, secret: DEV_SECRET, logLevel: 'silent', email: p.email, sms: p.sms, migrate: false }
      await expect(createServer({ ...base })).rejects.toThrow(/PORTICO_RECOVERY_KEY: required outside development mode/)
      await expect(createServer({ ...base, wallets: { recoveryKey: DEV_SECRET } })).rejects.toThrow(/must not be PORTICO_SECRET nor derived from it/)
      await expect(createServer({ ...base, wallets: { recoveryKey: derivedRecoveryKey(DEV_SECRET) } })).rejects.toThrow(/must not be PORTICO_SECRET nor derived from it/)
      await expect(createServer({ ...base, secretPrevious: ['an-older-server-secret-0123456789abcdef'], wallets: { recoveryKey: 'an-older-server-secret-0123456789abcdef' } })).rejects.toThrow(
        /must not be PORTICO_SECRET nor derived from it/,
      )
    }
  })

  it('a database dump plus PORTICO_SECRET cannot rebuild an automatic (privy) wallet: its recovery share is sealed with the separate recovery key', async () => {
    for (const t of targets) {
      const w = await create(t, 'privy')
      const strings = await dump(t)
      expect(await anyPairRebuilds(await sharesFrom(strings, [DEV_SECRET]), w.entropyId), t.name).toBe(false)
      // Positive control: with the recovery key as well, the dump does rebuild it (the README says so).
      expect(await anyPairRebuilds(await sharesFrom(strings, [DEV_SECRET, RECOVERY_KEY]), w.entropyId), t.name).toBe(true)
    }
  })

  it('a database dump plus PORTICO_SECRET and the recovery key cannot rebuild a Google Drive wallet: the sealed share is in the user’s drive', async () => {
    for (const t of targets) {
      const token = (await t.s.emailLogin(uniqueEmail('atk-drive'))).body.token as string
      const w = await create(t, 'google-drive', { recoveryAccessToken: await driveTokenThroughServer(t.s, token) })
      const strings = await dump(t)
      const shares = await sharesFrom(strings, [DEV_SECRET, RECOVERY_KEY])
      expect(await anyPairRebuilds(shares, w.entropyId), t.name).toBe(false)
      // The cloud key (derived from the secret) opens nothing in the dump either.
      const k = cloudKey({ keys: deriveKeys(DEV_SECRET) }, DEMO, w.userId, w.entropyId)
      const key = await crypto.subtle.importKey('raw', Buffer.from(k, 'hex'), { name: 'AES-GCM' }, false, ['decrypt'])
      for (const v of strings) await expect(open(v, key, cloudContext(DEMO, w.entropyId, 'google-drive'))).rejects.toBeTruthy()
    }
  })

  it('an operator who records the Drive token during the exchange can read the backup and, with PORTICO_SECRET and the database, rebuild a Google Drive wallet (the README says so)', async () => {
    for (const t of targets) {
      const login = await t.s.emailLogin(uniqueEmail('atk-drive'))
      // The exchange answers the frame through the server: the operator's process holds the token.
      const recorded = await driveTokenThroughServer(t.s, login.body.token as string)
      const w = await create(t, 'google-drive', { recoveryAccessToken: recorded })
      const fileId = String(w.sealed.recoveryMeta!.fileId)
      const base = process.env.PORTICO_CLOUD_DRIVE_BASE_URL!
      const file = await (await fetch(`${base}/google/drive/v3/files/${fileId}?alt=media`, { headers: { authorization: `Bearer ${recorded}` } })).text()
      const k = cloudKey({ keys: deriveKeys(DEV_SECRET) }, DEMO, w.userId, w.entropyId)
      const key = await crypto.subtle.importKey('raw', Buffer.from(k, 'hex'), { name: 'AES-GCM' }, false, ['decrypt'])
      const share = await open(file, key, cloudContext(DEMO, w.entropyId, 'google-drive'))
      const row = (await t.store.query<{ auth_share: string }>('SELECT auth_share FROM embedded_wallet_roots WHERE entropy_id = $1', [w.entropyId]))[0]
      const auth = (await deriveKeys(DEV_SECRET).open(row.auth_share, AUTH_SHARE_PURPOSE)).split('|').pop()!
      expect((await HdRoot.fromEntropy(await combineShares(share, shareFromString(auth)))).ethereum(0).address, t.name).toBe(w.entropyId)
    }
  })

  it('every sealed record names its key; after rotate-keys the rotated-out keys open none of them', async () => {
    for (const t of targets) {
      await create(t, 'privy')
      const NEW_SECRET = 'rotated-server-secret-0123456789abcdef-26'
      const NEW_RECOVERY = 'rotated-recovery-key-0123456789abcdef-26'
      const secret = deriveKeys(NEW_SECRET, [DEV_SECRET])
      const recovery = deriveKeys(NEW_RECOVERY, [RECOVERY_KEY])
      const report = await rotateKeys(t.store, { secret, recovery })
      expect(report.unreadable, t.name).toBe(0)
      expect(report.rewrapped).toBeGreaterThan(0)
      const roots = await t.store.query<{ auth_share: string; recovery_share: string; recovery_method: string }>('SELECT auth_share, recovery_share, recovery_method FROM embedded_wallet_roots')
      for (const r of roots) {
        expect(secret.kidOf(r.auth_share)).toBe(secret.kid)
        await expect(deriveKeys(DEV_SECRET).open(r.auth_share, AUTH_SHARE_PURPOSE)).rejects.toBeTruthy()
        if (r.recovery_method === 'privy') {
          expect(recovery.kidOf(r.recovery_share)).toBe(recovery.kid)
          await expect(deriveKeys(RECOVERY_KEY).open(r.recovery_share, RECOVERY_SHARE_PURPOSE)).rejects.toBeTruthy()
        }
      }
      // Rotate back so the target's running server (old keys) keeps working for later claims.
      const back = await rotateKeys(t.store, { secret: deriveKeys(DEV_SECRET, [NEW_SECRET]), recovery: deriveKeys(RECOVERY_KEY, [NEW_RECOVERY]) })
      expect(back.unreadable).toBe(0)
    }
  })
})
