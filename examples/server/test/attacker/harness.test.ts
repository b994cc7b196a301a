/**
 * The harness itself: the attacker's forged headers reach the server as sent (a Node client is
 * not a browser), and each target is a working server on its store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { uniqueEmail } from '../helpers'
import { FRAME_ORIGIN, attacker, startTargets, type Target } from './harness'

let targets: Target[] = []
beforeAll(async () => {
  targets = await startTargets()
}, 120_000)
afterAll(async () => {
  for (const t of targets) await t.close()
})

describe('attacker harness', () => {
  it('runs on PGlite (and PostgreSQL where installed) and forges the frame origin', async () => {
    expect(targets.map((t) => t.name)[0]).toBe('pglite')
    if (process.env.CI === 'true') expect(targets.map((t) => t.name)).toEqual(['pglite', 'postgres'])
    for (const t of targets) {
      const login = await t.s.emailLogin(uniqueEmail('atk'))
      expect(login.status).toBe(200)
      // The forged headers arrive as sent: the server sees the frame's Origin from a Node client.
      const a = attacker(t.s, login.body.token!, { origin: FRAME_ORIGIN })
      const me = await a.post('/users/me', {})
      expect([200, 404, 405]).toContain(me.status)
    }
  })
})
