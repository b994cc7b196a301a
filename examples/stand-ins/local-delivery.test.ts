/**
 * The on-ramp stand-ins deliver a completed purchase on the local chains (issue 25: a purchase
 * 'completed' but no balance moved, so nothing told whose wallet was paid): MoonPay's completed
 * transaction sends the ETH to the widget's walletAddress on hardhat; Coinbase's successful
 * purchase airdrops the SOL to the session's address on the SVM stand-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHmac, randomBytes } from 'node:crypto'
import { base58 } from '@scure/base'
import { parseEther, type Address } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startEvm, type Evm } from '../../test/chains/evm'
import { startSvm, type Svm } from '../../test/chains/svm'
import { createMoonPayStandIn } from './moonpay/server'
import { createCoinbaseStandIn } from './coinbase/server'
import { localDelivery, moonpayAsset } from './local-delivery'

let evm: Evm
let svm: Svm
beforeAll(async () => void ([evm, svm] = await Promise.all([startEvm(), startSvm()])), 120_000)
afterAll(() => {
  evm?.stop()
  svm?.stop()
})

const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() })

describe('on-ramp stand-ins deliver on the local chains', () => {
  it('MoonPay currency codes name the network and asset', () => {
    expect(moonpayAsset('eth')).toEqual({ network: 'ethereum', asset: 'ETH' })
    expect(moonpayAsset('eth_base')).toEqual({ network: 'base', asset: 'ETH' })
    expect(moonpayAsset('sol')).toEqual({ network: 'solana', asset: 'SOL' })
    expect(moonpayAsset('usdc_sol')).toEqual({ network: 'solana', asset: 'USDC' })
  })

  it("MoonPay: a completed purchase sends the ETH to the widget's wallet address (once)", async () => {
    const logs: string[] = []
    const mp = createMoonPayStandIn({ keys: { pk_test_x: 'sk_test_x' }, deliver: localDelivery({ evmRpc: evm.rpc, svmRpc: svm.rpc, log: (m) => logs.push(m) }) })
    const to = privateKeyToAccount(generatePrivateKey()).address
    const q = `?apiKey=pk_test_x&walletAddress=${to}&currencyCode=eth&quoteCurrencyAmount=0.05&externalTransactionId=ext-1`
    const raw = `${q}&signature=${encodeURIComponent(createHmac('sha256', 'sk_test_x').update(q).digest('base64'))}`
    for (let i = 0; i < 2; i++) {
      const r = await mp.app.fetch(new Request('http://mp.test/__stand-in/transactions', form({ q: raw, status: 'completed' })))
      expect(r.status).toBe(200)
    }
    expect(await evm.public.getBalance({ address: to as Address })).toBe(parseEther('0.05'))
    expect(logs).toHaveLength(1)
  })

  it("Coinbase: a successful purchase airdrops the SOL to the session's address", async () => {
    const cb = createCoinbaseStandIn({ keys: {}, projectId: 'proj', deliver: localDelivery({ evmRpc: evm.rpc, svmRpc: svm.rpc, log: () => {} }) })
    const to = base58.encode(randomBytes(32))
    cb.sessions.set('tok', { addresses: [{ address: to, blockchains: ['solana'] }], assets: ['SOL'], used: false })
    const page = await cb.app.fetch(new Request('http://cb.test/buy/select-asset?appId=proj&sessionToken=tok&partnerUserId=p1&defaultNetwork=solana&defaultAsset=SOL&presetCryptoAmount=0.1'))
    expect(page.status).toBe(200)
    const r = await cb.app.fetch(new Request('http://cb.test/__stand-in/finish', form({ partnerUserId: 'p1', network: 'solana', status: 'ONRAMP_TRANSACTION_STATUS_SUCCESS' })))
    expect(await r.text()).toContain('Purchase complete')
    expect(await svm.balance(to)).toBe(100_000_000)
  })
})
