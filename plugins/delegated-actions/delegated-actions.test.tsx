// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, screen } from '@testing-library/react'
import { createTestKernel, pluginContract, renderScreen, wireUser } from 'portico/testing'
import { embeddedWallet } from 'portico/plugins/embedded-wallet'
import { CONSENT_SCREEN, DELEGATED_ACTIONS_TEXTS, RESULT_CLOSE_MS, REVOKE_SCREEN, delegatedActions } from './test-support'

pluginContract(() => delegatedActions())
afterEach(cleanup)

const at = { verified_at: 1, first_verified_at: 1, latest_verified_at: 1 }
const ETH = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const SOL = 'HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH'
const wallet = (address: string, chain_type: string, wallet_index: number, extra = {}) => ({ type: 'wallet', address, chain_type, wallet_client_type: 'privy', connector_type: 'embedded', wallet_index, delegated: false, imported: false, recovery_method: 'privy', entropy_id: ETH, entropy_id_verifier: 'ethereum-address-verifier', ...at, ...extra })
const email = { type: 'email', address: 'a@example.com', ...at }

const FRAME_URL = 'http://127.0.0.1:8788'
const PROTOCOL = 'portico-wallet-frame/1'

/**
 * The real embedded-wallet plugin (delegation reads its wallets and frame) over a fake frame
 * window that answers ready and the consent request as the wallet frame would.
 */
function fakeEmbeddedWallet(answer: (type: string, payload: any) => Promise<unknown>) {
  const requests: { type: string; payload: any }[] = []
  const target = {
    postMessage(m: any) {
      if (m.type !== 'ready' && m.type !== 'delegated-actions:consent') return
      if (m.type !== 'ready') requests.push({ type: m.type, payload: m.payload })
      void (m.type === 'ready' ? Promise.resolve({ version: 1 }) : answer(m.type, m.payload)).then(
        (data) => window.dispatchEvent(new MessageEvent('message', { data: { protocol: PROTOCOL, id: m.id, data }, origin: FRAME_URL, source: target as never })),
        (e: Error) => window.dispatchEvent(new MessageEvent('message', { data: { protocol: PROTOCOL, id: m.id, error: { type: 'error', message: e.message } }, origin: FRAME_URL, source: target as never })),
      )
    },
  }
  return { requests, plugin: embeddedWallet({ frameUrl: FRAME_URL, frameTarget: target }) }
}

async function kernelWith(accounts: any[] | null, extra: any[] = [fakeEmbeddedWallet(async () => ({})).plugin]) {
  const t = await createTestKernel({ plugins: [delegatedActions(), ...extra], user: accounts ? wireUser({ accounts }) : undefined })
  return { ...t, api: t.kernel.plugin('delegated-actions') }
}

describe('delegateWallet: the spec’s rules and texts', () => {
  it('needs a logged-in user', async () => {
    const t = await kernelWith(null)
    await expect(t.api.delegateWallet({ address: ETH, chainType: 'ethereum' })).rejects.toMatchObject({ code: 'MUST_BE_AUTHENTICATED' })
  })
  it('Ethereum and Solana only; the address must be one of the user’s embedded wallets; Solana needs a Solana wallet', async () => {
    const t = await kernelWith([email, wallet(ETH, 'ethereum', 0)])
    await expect(t.api.delegateWallet({ address: ETH, chainType: 'bitcoin' as never })).rejects.toThrow(DELEGATED_ACTIONS_TEXTS.chainTypes)
    await expect(t.api.delegateWallet({ address: '0x0000000000000000000000000000000000000001', chainType: 'ethereum' })).rejects.toThrow('Address to delegate is not associated with current user.')
    await expect(t.api.delegateWallet({ address: SOL, chainType: 'solana' })).rejects.toThrow('User must have a solana wallet in order to delegate actions')
  })
  it('runs the sensitiveAction chain, then the consent screen; declining rejects', async () => {
    const t = await kernelWith([email, wallet(ETH, 'ethereum', 0)])
    const order: string[] = []
    t.kernel.hooks.sensitiveAction.tapPromise('mfa', async (c) => void order.push(`mfa:${c.action}`))
    const open = vi.spyOn(t.kernel.screens, 'open').mockImplementation(async (id) => (order.push(`open:${id}`), { ok: true, value: { done: true } }))
    await t.api.delegateWallet({ address: ETH.toLowerCase(), chainType: 'ethereum' })
    expect(order).toEqual(['mfa:delegate_wallet', `open:${CONSENT_SCREEN}`])
    expect(open.mock.calls[0][1]).toEqual({
      address: ETH,
      chainType: 'ethereum',
      walletIndex: 0,
      policy: { methods: ['personal_sign'], chain_ids: [], contracts: null, max_value_per_tx: '0', max_value_per_day: '0', expires_in: 30 * 86400 },
    })
    open.mockResolvedValueOnce({ ok: true, value: { declined: true } })
    await expect(t.api.delegateWallet({ address: ETH, chainType: 'ethereum' })).rejects.toMatchObject({ code: 'user_rejected' })
    open.mockResolvedValueOnce({ ok: true, value: { error: new Error('frame said no') } })
    await expect(t.api.delegateWallet({ address: ETH, chainType: 'ethereum' })).rejects.toThrow('frame said no')
  })
})

describe('revokeWallets', () => {
  it('needs at least one delegated wallet', async () => {
    const t = await kernelWith([email, wallet(ETH, 'ethereum', 0)])
    await expect(t.api.revokeWallets()).rejects.toThrow(DELEGATED_ACTIONS_TEXTS.nothingToRevoke)
  })
  it('opens the revoke screen, which calls POST /wallets/revoke {}, updates the user, and closes after 2.5 s', async () => {
    const delegatedUser = wireUser({ accounts: [email, wallet(ETH, 'ethereum', 0, { delegated: true })] })
    const t = await kernelWith(delegatedUser.linked_accounts)
    t.net.on('POST', '/wallets/revoke', { user: wireUser({ accounts: [email, wallet(ETH, 'ethereum', 0)] }) })
    vi.useFakeTimers({ shouldAdvanceTime: true })
    try {
      const view = await renderScreen(t.kernel, REVOKE_SCREEN, {})
      expect(await screen.findByText('Revoke offline access')).toBeTruthy()
      // The close timer starts between t0 and t1. The fake clock also moves with real time while
      // the result renders (shouldAdvanceTime), so it stops at t1 and the checks count from t0 /
      // t1: RESULT_CLOSE_MS after t0 is at most that long after the start, after t1 at least.
      const t0 = Date.now()
      fireEvent.click(screen.getByRole('button', { name: 'Revoke' }))
      expect(await screen.findByText('Offline access revoked')).toBeTruthy()
      vi.setTimerTickMode('manual')
      const t1 = Date.now()
      expect(t.net.calls.some((c: any) => c.method === 'POST' && c.path.endsWith('/wallets/revoke'))).toBe(true)
      expect((t.kernel.session.user!.linkedAccounts.find((a: any) => a.type === 'wallet') as any).delegated).toBe(false)
      let settled = false
      void view.flow.then(() => (settled = true))
      await vi.advanceTimersByTimeAsync(t0 + RESULT_CLOSE_MS - 1 - t1)
      expect(settled).toBe(false)
      await vi.advanceTimersByTimeAsync(t1 - t0 + 1)
      await expect(view.flow).resolves.toMatchObject({ ok: true, value: { done: true } })
    } finally {
      vi.useRealTimers()
    }
  })
})

/** A consent page window: answers ready, and the consent request as `answer` says (after the user's choice there). */
function fakeConsentPage(answer: (payload: any) => Promise<unknown>) {
  const requests: { type: string; payload: any }[] = []
  const target = {
    postMessage(m: any) {
      requests.push({ type: m.type, payload: m.payload })
      void (m.type === 'ready' ? Promise.resolve({ version: 1 }) : answer(m.payload)).then(
        (data) => window.dispatchEvent(new MessageEvent('message', { data: { protocol: PROTOCOL, id: m.id, data }, origin: FRAME_URL, source: target as never })),
        (e: Error) => window.dispatchEvent(new MessageEvent('message', { data: { protocol: PROTOCOL, id: m.id, error: { type: 'invalid_request_arguments', message: e.message } }, origin: FRAME_URL, source: target as never })),
      )
    },
  }
  return { requests, target: { contentWindow: target as never } }
}

describe('the policy the host proposes', () => {
  it('goes to the consent screen normalised (defaults: message signing only, 30 days); an invalid one rejects before anything opens', async () => {
    const t = await kernelWith([email, wallet(ETH, 'ethereum', 0)])
    const open = vi.spyOn(t.kernel.screens, 'open').mockResolvedValue({ ok: true, value: { done: true } })
    await t.api.delegateWallet({ address: ETH, chainType: 'ethereum' })
    expect(open.mock.calls[0][1]).toMatchObject({ policy: { methods: ['personal_sign'], chain_ids: [], contracts: null, max_value_per_tx: '0', max_value_per_day: '0', expires_in: 30 * 86400 } })
    await t.api.delegateWallet({ address: ETH, chainType: 'ethereum', policy: { methods: ['eth_signTransaction'], chainIds: [8453], maxValuePerTx: '1000' } })
    expect(open.mock.calls[1][1]).toMatchObject({ policy: { methods: ['eth_signTransaction'], chain_ids: [8453], max_value_per_tx: '1000', max_value_per_day: '1000' } })
    await expect(t.api.delegateWallet({ address: ETH, chainType: 'ethereum', policy: { methods: ['eth_signTransaction'] } })).rejects.toMatchObject({ code: 'invalid_data' })
    expect(open).toHaveBeenCalledTimes(2)
  })
})

describe('the consent page handshake', () => {
  const params = { address: ETH, chainType: 'ethereum' as const, walletIndex: 0, policy: { methods: ['personal_sign' as const], chain_ids: [], contracts: null, max_value_per_tx: '0', max_value_per_day: '0', expires_in: 3600 } }
  it('ready, then ONE request with the token, the root, the wallet and the policy; the user is set from the page’s answer', async () => {
    const delegated = wireUser({ accounts: [email, wallet(ETH, 'ethereum', 0, { delegated: true })] })
    const t = await kernelWith([email, wallet(ETH, 'ethereum', 0)])
    const page = fakeConsentPage(async () => ({ user: delegated }))
    const r = await t.api.consent(t.kernel.plugin('embedded-wallet'), params, page.target, FRAME_URL)
    expect(r).toHaveProperty('user')
    expect(page.requests.filter((q) => q.type === 'delegated-actions:consent')).toHaveLength(1)
    expect(page.requests.find((q) => q.type === 'delegated-actions:consent')!.payload).toMatchObject({ address: ETH, chainType: 'ethereum', walletIndex: 0, entropyId: ETH, entropyIdVerifier: 'ethereum-address-verifier', policy: params.policy })
    expect((t.kernel.session.user!.linkedAccounts.find((a: any) => a.type === 'wallet') as any).delegated).toBe(true)
  })
  it('Not now on the page declines; a refusal by the page rejects with its text; a message from another origin is ignored', async () => {
    const t = await kernelWith([email, wallet(ETH, 'ethereum', 0)])
    expect(await t.api.consent(t.kernel.plugin('embedded-wallet'), params, fakeConsentPage(async () => ({ declined: true })).target, FRAME_URL)).toEqual({ declined: true })
    await expect(t.api.consent(t.kernel.plugin('embedded-wallet'), params, fakeConsentPage(async () => Promise.reject(new Error('Address to delegate is not associated with current user.'))).target, FRAME_URL)).rejects.toThrow(
      'Address to delegate is not associated with current user.',
    )
    // The same answer from another origin is not the page's.
    const page = fakeConsentPage(async () => ({ declined: true }))
    await expect(t.api.consent(t.kernel.plugin('embedded-wallet'), params, page.target, 'http://127.0.0.1:9999', AbortSignal.timeout(300))).rejects.toMatchObject({ code: 'request_aborted' })
  })
})

describe('the consent screen', () => {
  it('embeds the consent page of the wallet service (no token in its address); success shows when the user allowed there, then it closes', async () => {
    const delegated = wireUser({ accounts: [email, wallet(ETH, 'ethereum', 0, { delegated: true })] })
    const t = await kernelWith([email, wallet(ETH, 'ethereum', 0)])
    let allow: (v: any) => void = () => {}
    const consent = vi.spyOn(t.api, 'consent').mockImplementation(() => new Promise((r) => (allow = r)))
    const params = { address: ETH, chainType: 'ethereum', walletIndex: 0, policy: { methods: ['personal_sign'], chain_ids: [], contracts: null, max_value_per_tx: '0', max_value_per_day: '0', expires_in: 3600 } }
    const view = await renderScreen(t.kernel, CONSENT_SCREEN, params)
    expect(await screen.findByText('Enable offline access')).toBeTruthy()
    // The page's iframe comes with the embedded-wallet plugin's page kit (loaded on use).
    const frame = (await screen.findByTestId('delegated-actions-frame')) as HTMLIFrameElement
    expect(frame.tagName).toBe('IFRAME')
    const src = new URL(frame.getAttribute('src')!)
    expect(src.origin).toBe(FRAME_URL)
    expect(src.pathname).toMatch(/^\/apps\/[^/]+\/embedded-wallets\/delegate$/)
    expect(src.search).not.toMatch(/token|eyJ|0x7099/i)
    // No button on this page allows: only the page can.
    expect(screen.queryByRole('button', { name: /Allow|Enable/ })).toBeNull()
    expect(consent.mock.calls[0][1]).toEqual(params)
    allow({ user: t.kernel.session.setUser(delegated) })
    expect(await screen.findByText('Offline access enabled')).toBeTruthy()
    await expect(view.flow).resolves.toMatchObject({ ok: true, value: { done: true } })
  })
  it('Not now (on the page) declines', async () => {
    const t = await kernelWith([email, wallet(ETH, 'ethereum', 0)])
    vi.spyOn(t.api, 'consent').mockResolvedValue({ declined: true })
    const view = await renderScreen(t.kernel, CONSENT_SCREEN, { address: ETH, chainType: 'ethereum', walletIndex: 0, policy: {} })
    await expect(view.flow).resolves.toMatchObject({ ok: true, value: { declined: true } })
  })
})
