/**
 * Attacker suite, step-up (issue 26): what a stolen access token can do about a new device.
 * The attacker is a Node client with the user's token, forging any header, and with a device
 * key of its own (anyone can make one; the user's frame key is non-extractable and stays in
 * the user's browser). The user's frames run the frame's own code (test/device-client.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { handlerFor } from '../../frame/handlers/index'
import { clearSession } from '../../frame/session'
import { testDevice, type TestDevice } from '../device-client'
import { uniqueEmail, type TestServer } from '../helpers'
import { attacker, startTargets, type Target } from './harness'

let targets: Target[] = []
beforeAll(async () => {
  targets = await startTargets()
}, 180_000)
afterAll(async () => {
  for (const t of targets) await t.close()
})

const SIX = /\b\d{6}\b/

/** The victim: a privy wallet made on their first browser; `login()` gives another session. */
async function victim(s: TestServer, prefix: string) {
  const email = uniqueEmail(prefix)
  const login = async () => {
    const r = await s.emailLogin(email)
    expect(r.status).toBe(200)
    return r.body.token as string
  }
  const token = await login()
  const browser = testDevice(s)
  clearSession()
  const w = await handlerFor('wallets:create')!({ accessToken: token, chainTypes: ['ethereum'] } as never, browser.ctx())
  clearSession()
  return { email, token, browser, login, entropyId: w.entropyId as string }
}

/** A device steps up with the victim's e-mailed code (the victim's own new browser). */
async function stepUp(s: TestServer, d: TestDevice, token: string, email: string, entropyId: string) {
  const start = await d.call('/api/v1/wallets/step_up/start', token, { entropy_id: entropyId })
  expect(start.status, JSON.stringify(start.body)).toBe(200)
  const v = await d.call('/api/v1/wallets/step_up/verify', token, { entropy_id: entropyId, code: await s.code(email) })
  expect(v.status, JSON.stringify(v.body)).toBe(200)
}

for (const name of ['pglite', 'postgres'] as const) {
  describe(`step-up (${name})`, () => {
    const target = () => targets.find((t) => t.name === name)
    const each = (title: string, fn: (t: Target) => Promise<void>) =>
      it(title, async (ctx) => {
        const t = target()
        if (!t) return ctx.skip()
        await fn(t)
      })

    each('a stolen token cannot start and verify a step-up without the code: no code is ever in a response', async (t) => {
      const v = await victim(t.s, 'atk-su-code')
      const stolen = await v.login()
      // The token alone, with the frame's Origin forged: no proof, no step-up.
      const bare = await attacker(t.s, stolen).post('/wallets/step_up/start', { entropy_id: v.entropyId })
      expect(bare.status).toBe(403)
      expect(bare.body.code).toBe('device_proof_required')
      // With a device key of its own: a code goes to the victim's e-mail, never to the attacker.
      const mine = testDevice(t.s)
      const start = await mine.call('/api/v1/wallets/step_up/start', stolen, { entropy_id: v.entropyId })
      expect(start.status).toBe(200)
      expect(start.body).toEqual({ method: 'email', to: `${v.email[0]}•••@${v.email.split('@')[1]}` })
      expect(JSON.stringify(start.body)).not.toMatch(SIX)
      expect([...start.headers.values()].join(' ')).not.toContain(await t.s.code(v.email))
      const guess = await mine.call('/api/v1/wallets/step_up/verify', stolen, { entropy_id: v.entropyId, code: '123456' })
      expect(guess.status).toBe(401)
      expect(JSON.stringify(guess.body)).not.toContain(await t.s.code(v.email))
      // No grant: the recovery share stays shut.
      const share = await mine.call('/api/v1/wallets/recovery_share', stolen, { entropy_id: v.entropyId })
      expect(share.status).toBe(403)
      expect(share.body.code).toBe('device_step_up_required')
      expect(share.body.recovery_share).toBeUndefined()
    })

    each('five wrong step-up codes void the code: the right one no longer works', async (t) => {
      const v = await victim(t.s, 'atk-su-void')
      const stolen = await v.login()
      const mine = testDevice(t.s)
      expect((await mine.call('/api/v1/wallets/step_up/start', stolen, { entropy_id: v.entropyId })).status).toBe(200)
      const right = await t.s.code(v.email)
      const wrong = right === '999999' ? '888888' : '999999'
      const answers: number[] = []
      for (let i = 0; i < 5; i++) answers.push((await mine.call('/api/v1/wallets/step_up/verify', stolen, { entropy_id: v.entropyId, code: wrong })).status)
      expect(answers).toEqual([401, 401, 401, 401, 403])
      const late = await mine.call('/api/v1/wallets/step_up/verify', stolen, { entropy_id: v.entropyId, code: right })
      expect(late.status).toBe(400)
      expect(late.body.code).toBe('step_up_code_expired')
      expect((await mine.call('/api/v1/wallets/recovery_share', stolen, { entropy_id: v.entropyId })).status).toBe(403)
    })

    each("a step-up code is bound to the device that asked: another device on the same token cannot use it", async (t) => {
      const v = await victim(t.s, 'atk-su-bind')
      const token = await v.login()
      const user = testDevice(t.s)
      expect((await user.call('/api/v1/wallets/step_up/start', token, { entropy_id: v.entropyId })).status).toBe(200)
      const code = await t.s.code(v.email)
      // The attacker learnt the code (say, over the user's shoulder) but holds another key.
      const mine = testDevice(t.s)
      const r = await mine.call('/api/v1/wallets/step_up/verify', token, { entropy_id: v.entropyId, code })
      expect(r.status).toBe(400)
      expect(r.body.code).toBe('step_up_code_expired')
      expect((await mine.call('/api/v1/wallets/recovery_share', token, { entropy_id: v.entropyId })).status).toBe(403)
    })

    each('a step-up grant is single use', async (t) => {
      const v = await victim(t.s, 'atk-su-once')
      const token = await v.login()
      const d = testDevice(t.s)
      await stepUp(t.s, d, token, v.email, v.entropyId)
      const first = await d.call('/api/v1/wallets/recovery_share', token, { entropy_id: v.entropyId })
      expect(first.status).toBe(200)
      const again = await d.call('/api/v1/wallets/recovery_share', token, { entropy_id: v.entropyId })
      expect(again.status).toBe(403)
      expect(again.body.code).toBe('device_step_up_required')
    })

    each('a step-up grant is bound to its session: the same device on another session of the user cannot use it', async (t) => {
      const v = await victim(t.s, 'atk-su-session')
      const token = await v.login()
      const d = testDevice(t.s)
      await stepUp(t.s, d, token, v.email, v.entropyId)
      const other = await v.login()
      const r = await d.call('/api/v1/wallets/recovery_share', other, { entropy_id: v.entropyId })
      expect(r.status).toBe(403)
      expect(r.body.code).toBe('device_step_up_required')
      // The grant is still there for its own session and device.
      expect((await d.call('/api/v1/wallets/recovery_share', token, { entropy_id: v.entropyId })).status).toBe(200)
    })

    each('a step-up grant is bound to its device: another device on the same session cannot use it', async (t) => {
      const v = await victim(t.s, 'atk-su-device')
      const token = await v.login()
      const user = testDevice(t.s)
      await stepUp(t.s, user, token, v.email, v.entropyId)
      const mine = testDevice(t.s)
      const r = await mine.call('/api/v1/wallets/recovery_share', token, { entropy_id: v.entropyId })
      expect(r.status).toBe(403)
      expect(r.body.code).toBe('device_step_up_required')
      expect(r.body.recovery_share).toBeUndefined()
    })

    each('a step-up grant is bound to its root: it opens no other wallet of the user', async (t) => {
      const v = await victim(t.s, 'atk-su-root')
      const token = await v.login()
      // A second root of the user's: an imported key, made on the first browser.
      clearSession()
      const imported = await handlerFor('wallets:import')!(
        { accessToken: v.token, chainType: 'ethereum', privateKey: `0x${'11'.repeat(31)}${(Math.floor(Math.random() * 200) + 16).toString(16)}` } as never,
        v.browser.ctx(),
      )
      clearSession()
      const d = testDevice(t.s)
      await stepUp(t.s, d, token, v.email, v.entropyId)
      const r = await d.call('/api/v1/wallets/recovery_share', token, { entropy_id: imported.entropyId })
      expect(r.status).toBe(403)
      expect(r.body.code).toBe('device_step_up_required')
    })

    each("removing a device needs a registered device's proof: a stolen token (with or without a key of its own) removes nothing", async (t) => {
      const v = await victim(t.s, 'atk-su-revoke')
      const stolen = await v.login()
      const list = await t.s.call('/api/v1/wallets/devices', { token: stolen, method: 'GET' })
      expect(list.status).toBe(200)
      expect(list.body.devices).toHaveLength(1)
      const target = list.body.devices[0].id as string
      const bare = await attacker(t.s, stolen).post('/wallets/devices/revoke', { device_id: target })
      expect(bare.status).toBe(403)
      const mine = testDevice(t.s)
      const keyed = await mine.call('/api/v1/wallets/devices/revoke', stolen, { device_id: target })
      expect(keyed.status).toBe(403)
      expect(keyed.body.code).toBe('device_step_up_required')
      expect((await t.s.call('/api/v1/wallets/devices', { token: stolen, method: 'GET' })).body.devices).toHaveLength(1)
    })
  })
}
