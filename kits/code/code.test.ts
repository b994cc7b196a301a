import { describe, expect, it, vi } from 'vitest'
import { createStore, PorticoError } from 'portico'
import { CODE_LENGTH, CODE_RESET_MS, RESEND_COOLDOWN_MS } from 'portico/ui'
import {
  CODE_TEXTS,
  INITIAL_CODE_STATE,
  createCodeFlow,
  isCompleteCode,
  normaliseCode,
  type CodeFlowState,
} from './flow'

function setup(overrides: Partial<Parameters<typeof createCodeFlow>[0]> = {}) {
  let clock = 1_000_000
  const store = createStore<CodeFlowState>(INITIAL_CODE_STATE)
  const send = vi.fn(async () => {})
  const verify = vi.fn(async (code: string, ctx: { destination: string; intent: string }) => ({ code, ...ctx }))
  const flow = createCodeFlow({ store, send, verify, now: () => clock, ...overrides })
  const statuses: string[] = []
  store.subscribe((s) => statuses.push(s.status))
  return { flow, store, send, verify, statuses, tick: (ms: number) => (clock += ms), now: () => clock }
}

describe('constants', () => {
  it('are the spec\'s numbers, defined once by portico/ui (the code boxes and this flow read the same ones)', () => {
    expect([CODE_LENGTH, RESEND_COOLDOWN_MS, CODE_RESET_MS]).toEqual([6, 30_000, 1_400])
  })
})

describe('normaliseCode', () => {
  it('strips whitespace and accepts exactly 6 digits', () => {
    expect(normaliseCode(' 12 34 56 ')).toBe('123456')
    expect(normaliseCode('123456\n')).toBe('123456')
  })
  it("refuses letters ('Code should be numeric') and other lengths", () => {
    expect(() => normaliseCode('12a456')).toThrow('Code should be numeric')
    expect(() => normaliseCode('12345')).toThrow(CODE_TEXTS.codeLength)
    expect(() => normaliseCode('1234567')).toThrow(CODE_TEXTS.codeLength)
    expect(() => normaliseCode('')).toThrow(CODE_TEXTS.codeLength)
    try {
      normaliseCode('x')
    } catch (e) {
      expect(e).toBeInstanceOf(PorticoError)
      expect((e as PorticoError).code).toBe('invalid_data')
    }
  })
  it('takes the method’s texts', () => {
    expect(() => normaliseCode('abc', { codeNumeric: 'Nur Ziffern' })).toThrow('Nur Ziffern')
  })
  it('isCompleteCode: the boxes submit at the sixth digit', () => {
    expect(isCompleteCode('12345')).toBe(false)
    expect(isCompleteCode('123 456')).toBe(true)
    expect(isCompleteCode('12345a')).toBe(false)
  })
})

describe('createCodeFlow', () => {
  it('send: initial → sending-code → awaiting-code-input, with destination, intent and codeSentAt', async () => {
    const { flow, send, statuses, now } = setup()
    expect(flow.getState()).toEqual(INITIAL_CODE_STATE)
    await flow.send(' ana@example.com ', { intent: 'link', token: 'captcha' })
    expect(send).toHaveBeenCalledWith('ana@example.com', { intent: 'link', token: 'captcha' })
    expect(statuses).toEqual(['sending-code', 'awaiting-code-input'])
    expect(flow.getState()).toEqual({ status: 'awaiting-code-input', destination: 'ana@example.com', intent: 'link', error: null, codeSentAt: now() })
  })

  it('prepare normalises or refuses the destination before anything is sent', async () => {
    const { flow, send } = setup({
      prepare: (d: string) => {
        if (d === 'no') throw new PorticoError('already_logged_in', 'nope')
        return d.toUpperCase()
      },
    })
    await expect(flow.send('no')).rejects.toMatchObject({ code: 'already_logged_in' })
    expect(send).not.toHaveBeenCalled()
    expect(flow.getState()).toMatchObject({ status: 'error', error: { code: 'already_logged_in' } })
    await flow.send('abc')
    expect(flow.getState().destination).toBe('ABC')
  })

  it('a failed send ends in error with the PorticoError', async () => {
    const { flow } = setup({ send: async () => Promise.reject(new PorticoError('too_many_requests', 'slow down', { status: 429 })) })
    await expect(flow.send('x')).rejects.toMatchObject({ code: 'too_many_requests' })
    expect(flow.getState()).toMatchObject({ status: 'error', error: { code: 'too_many_requests', status: 429 } })
  })

  it('submit normalises the code and verifies it for the destination and intent it was sent for', async () => {
    const { flow, verify, statuses } = setup()
    await flow.send('ana@example.com', { intent: 'update' })
    const result = await flow.submit(' 123 456 ', { extra: 1 } as never)
    expect(verify).toHaveBeenCalledWith('123456', { extra: 1, destination: 'ana@example.com', intent: 'update' })
    expect(result).toMatchObject({ code: '123456', destination: 'ana@example.com', intent: 'update' })
    expect(statuses.slice(-2)).toEqual(['submitting-code', 'done'])
  })

  it('submit refuses a bad code before verifying, and without any destination', async () => {
    const { flow, verify } = setup()
    await expect(flow.submit('123456')).rejects.toThrow(CODE_TEXTS.sendFirst)
    await flow.send('x')
    await expect(flow.submit('12a456')).rejects.toThrow('Code should be numeric')
    expect(flow.getState()).toMatchObject({ status: 'error', error: { code: 'invalid_data' } })
    expect(verify).not.toHaveBeenCalled()
  })

  it('submit with a destination and intent of its own (headless)', async () => {
    const { flow, verify } = setup()
    await flow.submit('000000', { destination: ' b@example.com ', intent: 'login' })
    expect(verify).toHaveBeenCalledWith('000000', { destination: 'b@example.com', intent: 'login' })
  })

  it('a failed verify ends in error; the destination stays for another try', async () => {
    const { flow } = setup({ verify: async () => Promise.reject(new PorticoError('invalid_credentials', 'bad', { status: 401 })) })
    await flow.send('x')
    await expect(flow.submit('111111')).rejects.toMatchObject({ code: 'invalid_credentials' })
    expect(flow.getState()).toMatchObject({ status: 'error', destination: 'x', error: { code: 'invalid_credentials' } })
  })

  it('resend: refused inside the 30 s cooldown, then sends to the same destination and intent', async () => {
    const { flow, send, tick } = setup()
    await expect(flow.resend()).rejects.toThrow(CODE_TEXTS.sendFirst)
    await flow.send('x', { intent: 'link' })
    expect(flow.resendIn()).toBe(RESEND_COOLDOWN_MS)
    tick(29_000)
    await expect(flow.resend()).rejects.toMatchObject({ code: 'too_many_requests', message: 'Wait 1s before asking for another code.' })
    expect(flow.getState().status).toBe('awaiting-code-input')
    tick(1_000)
    expect(flow.resendIn()).toBe(0)
    await flow.resend({ token: 't2' })
    expect(send).toHaveBeenLastCalledWith('x', { token: 't2', intent: 'link' })
    expect(flow.resendIn()).toBe(RESEND_COOLDOWN_MS)
  })

  it('reset: back to initial', async () => {
    const { flow } = setup()
    await flow.send('x')
    flow.reset()
    expect(flow.getState()).toEqual(INITIAL_CODE_STATE)
  })

  it('names no method (MFA methods configure it too)', async () => {
    const { readFileSync } = await import('node:fs')
    const source = readFileSync(new URL('./index.ts', import.meta.url), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')
    expect(source).not.toMatch(/\b(email|sms|phone|passwordless)\b/i)
  })
})
