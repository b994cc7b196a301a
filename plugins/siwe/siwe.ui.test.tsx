// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { isHex, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { authResponse, createTestKernel, wireUser, renderScreen } from 'portico/testing'
import { siwe, type Eip1193Provider } from './index'

const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')

function provider(state: { rejectSign: number }): Eip1193Provider {
  return {
    async request({ method, params }) {
      if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [account.address]
      if (method === 'eth_chainId') return '0x1'
      if (method === 'personal_sign') {
        if (state.rejectSign > 0) {
          state.rejectSign--
          throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
        }
        const data = (params as unknown[])[0] as Hex
        return account.signMessage({ message: isHex(data) ? { raw: data } : String(data) })
      }
      throw Object.assign(new Error('unsupported'), { code: 4200 })
    },
  }
}

function announce(target: EventTarget, p: Eip1193Provider, i: number, name = `Wallet ${i}`, rdns = `test.wallet${i}`) {
  target.dispatchEvent(
    new CustomEvent('eip6963:announceProvider', { detail: { info: { uuid: `u${i}`, name, icon: 'data:,', rdns }, provider: p } }),
  )
}

beforeEach(() => {
  ;(window as any).happyDOM?.setURL?.('http://localhost:5173/')
  vi.spyOn(performance, 'now').mockReturnValue(10_000) // past the 3000 ms detection window
})
afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

async function kernelWith(target: EventTarget) {
  return createTestKernel({ plugins: [siwe({ target: target as Window })], app: { login_methods: ['wallet'] } })
}

describe('wallet list screen', () => {
  it('shows 3 wallets and More wallets when there are 5, then all of them', async () => {
    const target = new EventTarget()
    const t = await kernelWith(target)
    const state = { rejectSign: 0 }
    for (let i = 1; i <= 5; i++) announce(target, provider(state), i)
    await renderScreen(t.kernel, 'wallet-list')
    await screen.findByText('Wallet 1')
    expect(screen.queryByText('Wallet 4')).toBeNull()
    expect(screen.getAllByText('Connect')).toHaveLength(3)
    fireEvent.click(screen.getByText('More wallets'))
    expect(screen.getByText('Wallet 5')).toBeTruthy()
    expect(screen.queryByText('More wallets')).toBeNull()
  })

  it('marks the recent wallet and lists it first', async () => {
    const target = new EventTarget()
    const t = await kernelWith(target)
    const state = { rejectSign: 0 }
    announce(target, provider(state), 1, 'Rabby', 'io.rabby')
    announce(target, provider(state), 2, 'MetaMask', 'io.metamask')
    t.net.on('POST', '/siwe/init', { nonce: 'nonce12345678' })
    t.net.on('POST', '/siwe/authenticate', authResponse(wireUser(), { is_new_user: true }))
    // Remember MetaMask as the recent method the way a login does.
    await t.kernel.completeLogin(authResponse(wireUser()), { method: 'siwe', walletClientType: 'metamask', chainType: 'ethereum' })
    await renderScreen(t.kernel, 'wallet-list')
    const rows = await screen.findAllByRole('button', { name: /Rabby|MetaMask/ })
    expect(rows.map((r) => r.textContent)).toEqual(['MetaMaskRecent', 'RabbyConnect'])
  })

  it('says no wallets are available', async () => {
    const t = await kernelWith(new EventTarget())
    await renderScreen(t.kernel, 'wallet-list')
    expect(
      await screen.findByText(
        'No wallets available: Please download an external wallet provider, like Rainbow, Phantom, or Coinbase Wallet',
      ),
    ).toBeTruthy()
  })
})

describe('awaiting-connection screen', () => {
  it('shows the rejection, retries, and closes the flow logged in', async () => {
    const target = new EventTarget()
    const t = await kernelWith(target)
    const state = { rejectSign: 1 }
    announce(target, provider(state), 1, 'MetaMask', 'io.metamask')
    t.net.on('POST', '/siwe/init', { nonce: 'nonce12345678' })
    t.net.on('POST', '/siwe/authenticate', authResponse(wireUser(), { is_new_user: true }))
    const view = await renderScreen(t.kernel, 'wallet-connect', { connectorId: 'eip6963:io.metamask' })
    expect(await screen.findByText('You rejected the request')).toBeTruthy()
    expect(screen.getByText('Signature rejected: Please try signing again.')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Use a different wallet' })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
    expect(await view.flow).toMatchObject({ ok: true })
    expect(t.kernel.session.authenticated).toBe(true)
    expect(t.net.callsTo('POST', '/siwe/authenticate')).toHaveLength(1)
  })

  it("with signPrompt 'button', signs only after 'Sign with your wallet'", async () => {
    const target = new EventTarget()
    const t = await createTestKernel({ plugins: [siwe({ target: target as Window, signPrompt: 'button' })], app: { login_methods: ['wallet'] } })
    announce(target, provider({ rejectSign: 0 }), 1, 'MetaMask', 'io.metamask')
    t.net.on('POST', '/siwe/init', { nonce: 'nonce12345678' })
    t.net.on('POST', '/siwe/authenticate', authResponse(wireUser(), { is_new_user: true }))
    const view = await renderScreen(t.kernel, 'wallet-connect', { connectorId: 'eip6963:io.metamask' })
    const button = await screen.findByRole('button', { name: 'Sign with your wallet' })
    expect(t.net.callsTo('POST', '/siwe/init')).toHaveLength(0)
    fireEvent.click(button)
    expect(await view.flow).toMatchObject({ ok: true })
  })

  it('hides Retry after 2 retries and says Unable to connect wallet', async () => {
    const target = new EventTarget()
    const t = await kernelWith(target)
    const state = { rejectSign: 10 }
    announce(target, provider(state), 1, 'MetaMask', 'io.metamask')
    t.net.on('POST', '/siwe/init', { nonce: 'nonce12345678' })
    await renderScreen(t.kernel, 'wallet-connect', { connectorId: 'eip6963:io.metamask' })
    for (let i = 0; i < 2; i++) {
      fireEvent.click(await screen.findByRole('button', { name: 'Retry' }))
      await waitFor(() => expect(state.rejectSign).toBe(10 - 2 - i))
    }
    expect(await screen.findByText('Unable to connect wallet')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull()
  })
})
