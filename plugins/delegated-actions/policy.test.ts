import { describe, expect, it } from 'vitest'
import { describePolicy, formatUnits, normalizePolicy } from './policy'

describe('a delegation policy in plain words (what the consent page lists)', () => {
  it('the default: messages only, until the date', () => {
    expect(describePolicy('ethereum', normalizePolicy('ethereum', null), '27 December 2026')).toEqual(['Sign messages', 'Until 27 December 2026, unless you revoke it sooner'])
  })
  it('transactions: the chains, the addresses, the caps in ETH / SOL', () => {
    const p = normalizePolicy('ethereum', {
      methods: ['eth_signTransaction', 'personal_sign'],
      chainIds: [8453, 1],
      contracts: ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8'],
      maxValuePerTx: '10000000000000000',
      maxValuePerDay: '50000000000000000',
    })
    expect(p.methods).toEqual(['personal_sign', 'eth_signTransaction'])
    expect(p.contracts).toEqual(['0x70997970c51812dc3a010c7d01b50e0d17dc79c8'])
    expect(describePolicy('ethereum', p, '1 May 2027')).toEqual([
      'Sign messages',
      'Sign transactions',
      'On Ethereum (1), Base (8453)',
      'Only with 0x7099…79c8',
      'Up to 0.01 ETH per transaction and 0.05 ETH per day',
      'Until 1 May 2027, unless you revoke it sooner',
    ])
    const sol = normalizePolicy('solana', { methods: ['signTransaction'] })
    expect(describePolicy('solana', sol, 'x')).toEqual(['Sign transactions', 'With any address or contract', 'Cannot send SOL', 'Until x, unless you revoke it sooner'])
    expect(describePolicy('ethereum', normalizePolicy('ethereum', { methods: ['eth_signTransaction'], chainIds: [137], maxValuePerTx: '1' }), 'x')).toContain(
      'Up to 0.000000000000000001 native coin per transaction and 0.000000000000000001 native coin per day',
    )
  })
  it('formatUnits', () => {
    expect(formatUnits('0', 18)).toBe('0')
    expect(formatUnits('1500000000', 9)).toBe('1.5')
    expect(formatUnits('123', 2)).toBe('1.23')
  })
})
