/**
 * MFA attempt counting on real PostgreSQL with a connection pool (truly concurrent requests,
 * unlike PGlite's single connection): parallel wrong codes get at most MFA_MAX_ATTEMPTS checks,
 * and one TOTP code raced in parallel is accepted once.
 */
import * as OTPAuth from 'otpauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openStore, type Store } from '../src/core/store'
import { MFA_MAX_ATTEMPTS } from '../src/features/mfa/service'
import { startPostgres, startTestServer, uniqueEmail, type TempPostgres, type TestServer } from './helpers'

const MFA = 'portico-test-mfa-00000001'
const pg: TempPostgres | null = await startPostgres()

let store: Store
let s: TestServer
beforeAll(async () => {
  if (!pg) return
  store = await openStore({ databaseUrl: pg.url })
  s = await startTestServer(store)
})
afterAll(async () => {
  await s?.close()
  await store?.close()
  await pg?.stop()
})

describe.skipIf(!pg)('MFA on PostgreSQL', () => {
  const call = (path: string, body: unknown, token: string) => s.call(`/api/v1${path}`, { body, token, appId: MFA })
  async function enrolled() {
    const r = await s.emailLogin(uniqueEmail('mfapg'), { appId: MFA })
    const token = r.body.token as string
    const init = await call('/mfa/totp/init', {}, token)
    const gen = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(init.body.secret), digits: 6, period: 30, algorithm: 'SHA1' })
    // Enrolled with the previous step's code (the current step stays unused for the tests), which
    // the server accepts while its clock is in this step or the next: not in a step's last 5 s,
    // where a busy machine's request could reach the server two steps on.
    const inStep = Date.now() % 30_000
    if (inStep > 25_000) await new Promise((r) => setTimeout(r, 30_000 - inStep + 50))
    expect((await call('/mfa/totp/enroll', { code: gen.generate({ timestamp: Date.now() - 30_000 }) }, token)).status).toBe(200)
    return { token, gen }
  }

  it('parallel wrong codes: at most 4 checked in the window (one was the enrolment)', async () => {
    const { token, gen } = await enrolled()
    const wrong = String((Number(gen.generate()) + 1) % 1_000_000).padStart(6, '0')
    const results = await Promise.all(Array.from({ length: 12 }, () => call('/mfa/totp/verify', { code: wrong }, token)))
    expect(results.filter((r) => r.status === 403)).toHaveLength(MFA_MAX_ATTEMPTS - 1)
    expect(results.filter((r) => r.status === 429)).toHaveLength(12 - (MFA_MAX_ATTEMPTS - 1))
  })

  it('one right code raced three times is accepted once', async () => {
    const { token, gen } = await enrolled()
    const code = gen.generate()
    const results = await Promise.all(Array.from({ length: 3 }, () => call('/mfa/totp/verify', { code }, token)))
    expect(results.map((r) => r.status).sort()).toEqual([200, 403, 403])
  })
})
