import { describe, expect, it } from 'vitest'
import { fundingAddress, localCluster } from './funding-demo'

const wallets = [
  { address: '0xOwnEth', chainType: 'ethereum', walletIndex: 0 },
  { address: 'OwnSolana111', chainType: 'solana', walletIndex: 0 },
  { address: '0xSecond', chainType: 'ethereum', walletIndex: 1 },
]

describe("the demo's funding panel (issue 25: it funded a hardhat dev account)", () => {
  it("each chain's button pays the user's own embedded wallet of that chain", () => {
    expect(fundingAddress(wallets, 'ethereum', undefined)).toBe('0xOwnEth')
    expect(fundingAddress(wallets, 'solana', undefined)).toBe('OwnSolana111')
    expect(fundingAddress([...wallets].reverse(), 'ethereum', undefined)).toBe('0xOwnEth')
  })
  it('an address the user typed wins; no wallet and nothing typed: none (the panel asks to create one)', () => {
    expect(fundingAddress(wallets, 'ethereum', ' 0xTyped ')).toBe('0xTyped')
    expect(fundingAddress([], 'ethereum', undefined)).toBe('')
    expect(fundingAddress([], 'solana', undefined)).toBe('')
  })
  it('Solana funding watches the local cluster, not mainnet', () => {
    expect(localCluster('http://127.0.0.1:8899')).toEqual({ name: 'localnet', rpcUrl: 'http://127.0.0.1:8899' })
  })
})
