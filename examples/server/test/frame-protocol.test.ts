/**
 * The wallet frame protocol's runtime half exists twice: the client's (plugins/embedded-wallet)
 * and the server frame's (src/wire/frame-protocol.ts), so the frame runs no client code. Both
 * must agree to the letter: the protocol mark, the envelope check, the derivation paths and the
 * recovery password rule with its messages.
 */
import { describe, expect, it } from 'vitest'
import * as client from '../../../plugins/embedded-wallet/protocol'
import * as clientPassword from '../../../plugins/embedded-wallet/recovery/password'
import * as server from '../src/wire/frame-protocol'

describe('the frame protocol: server and client agree', () => {
  it('the protocol mark', () => {
    expect(server.FRAME_PROTOCOL).toBe(client.FRAME_PROTOCOL)
  })

  it('the envelope check', () => {
    const P = client.FRAME_PROTOCOL
    const cases: unknown[] = [
      { protocol: P, id: '1', type: 'ready' },
      { protocol: P, id: '1', type: 'wallets:create', payload: {} },
      { protocol: P, id: 1, type: 'ready' },
      { protocol: P, id: '1' },
      { protocol: 'other/1', id: '1', type: 'ready' },
      { id: '1', type: 'ready' },
      null,
      undefined,
      'portico-wallet-frame/1',
      [P, '1', 'ready'],
    ]
    const verdicts = cases.map((m) => server.isFrameRequest(m))
    expect(verdicts).toEqual(cases.map((m) => client.isFrameRequest(m)))
    expect(verdicts.filter(Boolean)).toHaveLength(2)
  })

  it('the derivation paths', () => {
    for (const i of [0, 1, 7, 99, 2 ** 31 - 1]) {
      expect(server.ethereumPath(i)).toBe(client.ethereumPath(i))
      expect(server.solanaPath(i)).toBe(client.solanaPath(i))
    }
  })

  it('the password rule and its messages', () => {
    const passwords = ['', 'a', 'abcde', 'abcdef', 'Abc123!@#$%^&*()-_+', 'with space', 'tab\there', 'ümlaut12', 'a b c d', '日本語パスワード', 'ok-pass_1', 'semi;colon', '😀😀😀😀😀😀', 'aaaaa ']
    for (const p of passwords) {
      expect(server.passwordError(p), p).toBe(clientPassword.passwordError(p))
      expect(server.isValidPassword(p), p).toBe(clientPassword.isValidPassword(p))
    }
    expect(server.PASSWORD_MIN_LENGTH).toBe(clientPassword.PASSWORD_MIN_LENGTH)
    expect(passwords.filter((p) => server.isValidPassword(p)).length).toBeGreaterThan(1)
    expect(passwords.filter((p) => server.passwordError(p) !== null).length).toBeGreaterThan(4)
  })
})
