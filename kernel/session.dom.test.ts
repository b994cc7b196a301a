// @vitest-environment happy-dom
import { expect, it } from 'vitest'
import { authResponse } from '../test/kit/fixtures'
import { createEvents } from './events'
import { REFRESH_MARKER_COOKIE, createSession, defaultStorage } from './session'

it('sets the 30-day refresh-marker cookie on login and removes it on clear; uses localStorage', () => {
  const storage = defaultStorage()
  expect(storage).toBe(globalThis.localStorage)
  const session = createSession({
    appId: 'portico-test-app-00000001',
    api: () => {
      throw new Error('no network in this test')
    },
    events: createEvents(),
    storage,
    methods: { forAccountType: () => undefined, list: () => [] },
    onLogout: async () => {},
    locks: null,
    channel: null,
  })
  session.apply(authResponse())
  expect(document.cookie).toContain(`${REFRESH_MARKER_COOKIE}=t`)
  session.apply({ ...authResponse(), session_update_action: 'clear' })
  expect(document.cookie).not.toContain(`${REFRESH_MARKER_COOKIE}=t`)
  session.destroy()
})
