/**
 * The WebAuthn helpers shared by passkey login and passkey MFA (src/webauthn.ts): the options
 * both hand out and the response shape both accept. The assertion and counter checks run in
 * passkeys.test.ts and mfa.test.ts with a software authenticator.
 */
import { describe, expect, it } from 'vitest'
import { CHALLENGE_TTL_S, authenticationOptions, authenticationResponse, registrationResponse } from '../src/features/passkeys/webauthn'

describe('webauthn helpers', () => {
  it('authentication options: the RP id, preferred user verification, the challenge lifetime; an allow list only for MFA', async () => {
    const login = await authenticationOptions('example.com')
    expect(login).toMatchObject({ rpId: 'example.com', userVerification: 'preferred', timeout: CHALLENGE_TTL_S * 1000 })
    expect(login.allowCredentials ?? []).toEqual([])
    const mfa = await authenticationOptions('example.com', [
      { identifier: 'AAAA', transports: ['internal'] },
      { identifier: 'BBBB', transports: null },
    ])
    expect(mfa.allowCredentials).toEqual([
      { id: 'AAAA', type: 'public-key', transports: ['internal'] },
      { id: 'BBBB', type: 'public-key', transports: undefined },
    ])
    expect(mfa.challenge).not.toBe(login.challenge)
  })

  it('response shapes: base64url fields, bounded, type public-key', () => {
    const base = { id: 'abc_-', rawId: 'abc_-', type: 'public-key' }
    expect(authenticationResponse.safeParse({ ...base, response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' } }).success).toBe(true)
    expect(authenticationResponse.safeParse({ ...base, response: { clientDataJSON: 'e3+/', authenticatorData: 'AA', signature: 'AA' } }).success).toBe(false)
    expect(authenticationResponse.safeParse({ ...base, type: 'password', response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' } }).success).toBe(false)
    expect(registrationResponse.safeParse({ ...base, response: { clientDataJSON: 'e30', attestationObject: 'A'.repeat(32_769) } }).success).toBe(false)
    expect(registrationResponse.safeParse({ ...base, response: { clientDataJSON: 'e30', attestationObject: 'AA', transports: ['usb'] } }).success).toBe(true)
  })
})
