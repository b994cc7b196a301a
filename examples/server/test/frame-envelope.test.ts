/**
 * The wallet frame's envelope adapter (examples/server/frame/envelope.ts, issue 31): its own
 * `{protocol, id, type, payload}` and the published client's JSON string `{id, event, data}`,
 * each answered in its own envelope; anything else is ignored. (Both run after guard.ts's
 * origin and source check; compat-frame.spec.ts drives the client against it in Chromium.)
 */
import { describe, expect, it } from 'vitest'
import { FRAME_PROTOCOL } from '../src/wire/frame'
import { FrameFailure, type FrameContext } from '../frame/context'
import { CLIENT_EVENTS, dispatch, readMessage, replyTo, toFrameError } from '../frame/envelope'
import { register } from '../frame/handlers/registry'
import { passkeyVerifyBody } from '../frame/handlers/mfa'

register('ready', async () => ({ version: 1 }))
const ctx = { config: { appId: 'portico-demo-app-00000001', apiUrl: '', allowedOrigins: [] }, origin: 'http://host.example', api: async () => ({}) } as unknown as FrameContext

const failure = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(FrameFailure)
  return toFrameError(e)
}

describe('readMessage', () => {
  it('reads the frame protocol and the client envelope', () => {
    expect(readMessage({ protocol: FRAME_PROTOCOL, id: '1', type: 'ready', payload: {} })).toEqual({ kind: 'frame', id: '1', type: 'ready', payload: {} })
    expect(readMessage(JSON.stringify({ id: 'id-0', event: 'privy:iframe:ready', data: {} }))).toEqual({ kind: 'client', id: 'id-0', event: 'privy:iframe:ready', payload: {} })
    // A missing or non-object `data` is an empty payload.
    expect(readMessage(JSON.stringify({ id: 'id-1', event: 'privy:mfa:clear' }))).toMatchObject({ kind: 'client', payload: {} })
    expect(readMessage(JSON.stringify({ id: 'id-1', event: 'privy:mfa:clear', data: [1] }))).toMatchObject({ payload: {} })
  })

  it('ignores everything else', () => {
    for (const m of [
      null,
      'hello',
      '{not json',
      JSON.stringify({ id: 'x', event: 'other:event', data: {} }),
      JSON.stringify({ id: 1, event: 'privy:iframe:ready' }),
      JSON.stringify({ id: '', event: 'privy:iframe:ready' }),
      { id: 'x', event: 'privy:iframe:ready', data: {} }, // the client's envelope is a string
      { protocol: 'other/1', id: 'x', type: 'ready' },
      `{"id":"x","event":"privy:iframe:ready","data":"${'a'.repeat(300 * 1024)}"}`,
    ]) {
      expect(readMessage(m)).toBeNull()
    }
  })
})

describe('replies', () => {
  it('answers each envelope in its own shape', () => {
    const frame = readMessage({ protocol: FRAME_PROTOCOL, id: '7', type: 'ready', payload: {} })!
    const client = readMessage(JSON.stringify({ id: 'id-7', event: 'privy:wallets:rpc', data: {} }))!
    expect(replyTo(frame, { data: { ok: 1 } })).toEqual({ protocol: FRAME_PROTOCOL, id: '7', data: { ok: 1 } })
    expect(replyTo(client, { data: { ok: 1 } })).toEqual({ id: 'id-7', event: 'privy:wallets:rpc', data: { ok: 1 } })
    expect(replyTo(client, { error: { type: 'wallet_not_on_device', message: 'm' } })).toEqual({ id: 'id-7', event: 'privy:wallets:rpc', error: { type: 'wallet_not_on_device', message: 'm' } })
  })

  it('maps failures to {type, message}', () => {
    expect(toFrameError(new FrameFailure('invalid_recovery_pin', 'Invalid recovery password'))).toEqual({ type: 'invalid_recovery_pin', message: 'Invalid recovery password' })
    expect(toFrameError(new RangeError('bad'))).toEqual({ type: 'invalid_request_arguments', message: 'bad' })
    expect(toFrameError(new Error(''))).toEqual({ type: 'error', message: 'An error has occurred, please try again.' })
  })
})

describe('dispatch', () => {
  it('answers ready in both envelopes', async () => {
    expect(await dispatch(readMessage({ protocol: FRAME_PROTOCOL, id: '1', type: 'ready', payload: {} })!, ctx)).toEqual({ version: 1 })
    expect(await dispatch(readMessage(JSON.stringify({ id: 'id-0', event: 'privy:iframe:ready', data: {} }))!, ctx)).toEqual({})
  })

  it('refuses unknown types and events with a clear error', async () => {
    expect(await failure(dispatch(readMessage({ protocol: FRAME_PROTOCOL, id: '1', type: 'nope', payload: {} })!, ctx))).toEqual({ type: 'invalid_request_arguments', message: 'Unknown request type: nope' })
    // Events of the client the reference frame does not offer (user signers, passkey unlink, the hidden frame's consent).
    for (const event of ['privy:user-signer:sign', 'privy:auth:unlink-passkey', 'privy:delegated-actions:consent']) {
      expect(await failure(dispatch(readMessage(JSON.stringify({ id: 'id-1', event, data: {} }))!, ctx))).toEqual({ type: 'invalid_request_arguments', message: `Unknown request type: ${event}` })
    }
  })

  it('checks what a client request carries before any call', async () => {
    const client = (event: string, data: object) => dispatch(readMessage(JSON.stringify({ id: 'id-2', event, data }))!, ctx)
    expect(await failure(client('privy:wallets:connect', { entropyId: '0xabc' }))).toEqual({ type: 'invalid_request_arguments', message: 'An error has occured, please login again.' })
    expect(await failure(client('privy:wallets:connect', { accessToken: 't' }))).toEqual({ type: 'invalid_request_arguments', message: 'entropyId: Required' })
    expect((await failure(client('privy:mfa:verify', { accessToken: 't' }))).type).toBe('missing_or_invalid_mfa')
    expect((await failure(client('privy:mfa:init-enrollment', { accessToken: 't', method: 'email' }))).type).toBe('invalid_request_arguments')
    expect((await failure(client('privy:mfa:unenroll', { accessToken: 't', method: 'fax' }))).type).toBe('invalid_request_arguments')
    // The spec names an enrolment's code mfaCode: without an mfaMethod it is the enrolment's own code.
    expect(await failure(client('privy:mfa:submit-enrollment', { accessToken: 't', method: 'sms', mfaCode: '123456' }))).toEqual({ type: 'invalid_request_arguments', message: 'phoneNumber: Required' })
    expect(await failure(client('privy:mfa:submit-enrollment', { accessToken: 't', method: 'totp', mfaCode: ' ' }))).toEqual({ type: 'missing_or_invalid_mfa', message: 'Invalid MFA code' })
    // With an mfaMethod it is a verification, run first (here refused for its method).
    expect((await failure(client('privy:mfa:submit-enrollment', { accessToken: 't', method: 'sms', code: '123456', mfaMethod: 'fax', mfaCode: '1' }))).message).toBe("method: expected 'sms', 'totp' or 'passkey'")
    // An MFA code of an unknown method is refused before the request runs.
    expect((await failure(client('privy:wallets:rpc', { accessToken: 't', mfaMethod: 'fax', mfaCode: '123456' }))).type).toBe('invalid_request_arguments')
  })

  it('translates the client events the reference frame offers (the rest are refused above)', () => {
    expect(Object.keys(CLIENT_EVENTS).sort()).toEqual(
      [
        'privy:iframe:ready',
        'privy:wallet:create',
        'privy:wallets:create',
        'privy:solana-wallet:create',
        'privy:wallets:add',
        'privy:wallets:import',
        'privy:wallets:connect',
        'privy:wallets:recover',
        'privy:wallets:set-recovery',
        'privy:wallets:rpc',
        'privy:mfa:verify',
        'privy:mfa:init-enrollment',
        'privy:mfa:submit-enrollment',
        'privy:mfa:unenroll',
        'privy:mfa:clear',
      ].sort(),
    )
  })
})

describe('passkey MFA through the frame', () => {
  const b64url = (s: string) => Buffer.from(s).toString('base64url')
  const clientData = b64url(JSON.stringify({ type: 'webauthn.get', challenge: 'c2VydmVyLWNoYWxsZW5nZQ', origin: 'http://localhost:3000' }))

  it("turns the client's snake_case assertion into the verify route's body, the challenge read from clientDataJSON", () => {
    const code = {
      id: 'cred-1',
      raw_id: 'cred-1',
      type: 'public-key',
      authenticator_attachment: 'platform',
      client_extension_results: {},
      response: { client_data_json: clientData, authenticator_data: 'YXV0aA', signature: 'c2ln', user_handle: 'dXNlcg' },
    }
    expect(passkeyVerifyBody(code, 'http://localhost:3000')).toEqual({
      relying_party: 'localhost',
      challenge: 'c2VydmVyLWNoYWxsZW5nZQ',
      authenticator_response: {
        id: 'cred-1',
        rawId: 'cred-1',
        type: 'public-key',
        response: { clientDataJSON: clientData, authenticatorData: 'YXV0aA', signature: 'c2ln', userHandle: 'dXNlcg' },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      },
    })
    // The browser's own JSON names pass through; a bare host name is the relying party as is.
    const camel = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: { clientDataJSON: `${clientData}==`, authenticatorData: 'YXV0aA', signature: 'c2ln' } }
    expect(passkeyVerifyBody(camel, 'example.com')).toMatchObject({ relying_party: 'example.com', challenge: 'c2VydmVyLWNoYWxsZW5nZQ', authenticator_response: { response: { signature: 'c2ln' } } })
  })

  it('refuses an assertion without a readable challenge as an invalid MFA code (the client asks again)', () => {
    for (const code of [undefined, 'nope', { id: 'x', response: {} }, { id: 'x', response: { client_data_json: b64url('not json') } }, { response: { client_data_json: clientData } }]) {
      expect(() => passkeyVerifyBody(code, undefined)).toThrow(FrameFailure)
      try {
        passkeyVerifyBody(code, undefined)
      } catch (e) {
        expect((e as FrameFailure).type).toBe('missing_or_invalid_mfa')
      }
    }
  })
})
