import { describe, expect, it } from 'vitest'
import { createSiwsMessage, parseSiwsMessage } from './siws-message'

const fields = {
  domain: 'app.example',
  address: 'GsbwXfJraMomNxBcjYLcG3mxkBUiyWXAB32fGbSMQRdW',
  statement: 'Sign in to the app',
  uri: 'https://app.example',
  version: '1',
  chainId: 'mainnet',
  nonce: 'n0nce1234',
  issuedAt: '2026-11-28T00:00:00.000Z',
  expirationTime: '2026-11-28T00:10:00.000Z',
  requestId: 'r-1',
}

describe('SIWS messages', () => {
  it('builds the fields in their order and parses them back', () => {
    const text = createSiwsMessage(fields)
    expect(text.split('\n').slice(0, 6)).toEqual([
      'app.example wants you to sign in with your Solana account:',
      fields.address,
      '',
      'Sign in to the app',
      '',
      'URI: https://app.example',
    ])
    expect(text).toContain('Chain ID: mainnet\nNonce: n0nce1234\nIssued At: 2026-11-28T00:00:00.000Z\nExpiration Time: 2026-11-28T00:10:00.000Z\nRequest ID: r-1')
    expect(parseSiwsMessage(text)).toEqual(fields)
  })

  it("a statement line that looks like a label of the object prototype ('constructor: x') stays statement text", () => {
    const text = createSiwsMessage({ ...fields, statement: 'constructor: x' })
    expect(parseSiwsMessage(text)?.statement).toBe('constructor: x')
  })

  it('is null for a text that is not a SIWS message', () => {
    expect(parseSiwsMessage('hello')).toBeNull()
  })
})
