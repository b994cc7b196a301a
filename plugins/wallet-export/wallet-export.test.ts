import { describe, expect, it, vi } from 'vitest'
import { createTestKernel, pluginContract, wireUser } from 'portico/testing'
import { isPorticoError } from 'portico'
import { EXPORT_SCREEN, walletExport } from './index'
import { WALLET_EXPORT_TEXTS } from './strings'
import { EXPORT_SCREEN as FLOW_SCREEN } from './flow'
import { exportPath } from './protocol'
import { requestExport } from './calls'
import { embeddedWallet } from 'portico/plugins/embedded-wallet'

pluginContract(() => walletExport())

const at = { verified_at: 1, first_verified_at: 1, latest_verified_at: 1 }
const ETH = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const ETH1 = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const SOL = 'HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH'
const wallet = (address: string, chain_type: string, wallet_index: number, extra = {}) => ({ type: 'wallet', address, chain_type, wallet_client_type: 'privy', connector_type: 'embedded', wallet_index, delegated: false, imported: false, recovery_method: 'privy', entropy_id: ETH, entropy_id_verifier: 'ethereum-address-verifier', ...at, ...extra })
/** The real embedded-wallet plugin (export reads its wallets and origin); its frame never answers here. */
const ew = (o: { frameUrl?: string } = { frameUrl: 'http://127.0.0.1:8788' }) => embeddedWallet({ ...o, frameTarget: { postMessage() {} }, readyTimeoutMs: 20 })
const email = { type: 'email', address: 'a@example.com', ...at }
/** The embedded-wallet plugin's page kit (handshake and iframe), as the export screen gets it. */
const walletPage = async () => (await createTestKernel({ plugins: [ew()] })).kernel.plugin('embedded-wallet').walletPage()

async function kernelWith(accounts: any[] | null) {
  const t = await createTestKernel({ plugins: [ew(), walletExport()], user: accounts ? wireUser({ accounts }) : undefined })
  const opened: any[] = []
  vi.spyOn(t.kernel.screens, 'open').mockImplementation(async (id, params) => {
    opened.push({ id, params })
    return { ok: true }
  })
  return { ...t, opened, api: t.kernel.plugin('wallet-export') }
}

describe('exportWallet: the spec’s rules and texts', () => {
  it('needs a logged-in user', async () => {
    const t = await kernelWith(null)
    await expect(t.api.exportWallet()).rejects.toMatchObject({ code: 'MUST_BE_AUTHENTICATED', message: 'User must be authenticated before exporting their Privy wallet' })
  })

  it('needs an embedded wallet (an external wallet does not count)', async () => {
    const t = await kernelWith([email, { ...wallet(ETH, 'ethereum', 0), wallet_client_type: 'metamask' }])
    await expect(t.api.exportWallet()).rejects.toMatchObject({ code: 'EMBEDDED_WALLET_NOT_FOUND', message: 'Must have a Privy wallet before exporting' })
    await expect(t.api.exportWallet({ address: '0x0000000000000000000000000000000000000001' })).rejects.toThrow('Must have a Privy wallet before exporting')
  })

  it('exportSolanaWallet needs a Solana wallet', async () => {
    const t = await kernelWith([email, wallet(ETH, 'ethereum', 0)])
    await expect(t.api.exportSolanaWallet()).rejects.toMatchObject({ message: 'User does not have an HD Solana wallet.' })
  })

  it('runs the sensitiveAction chain (MFA) before opening Transfer wallet, and a refusal stops it', async () => {
    const t = await kernelWith([email, wallet(ETH, 'ethereum', 0), wallet(SOL, 'solana', 0)])
    const seen: any[] = []
    t.kernel.hooks.sensitiveAction.tapPromise('test-mfa', async (c) => {
      seen.push({ action: c.action, details: c.details, opened: t.opened.length })
    })
    await t.api.exportWallet()
    expect(seen).toEqual([{ action: 'export_wallet', details: { address: ETH, chainType: 'ethereum', phrase: false }, opened: 0 }])
    expect(t.opened).toEqual([{ id: EXPORT_SCREEN, params: { address: ETH, chainType: 'ethereum', walletIndex: 0, phrase: false } }])
    await t.api.exportSolanaWallet()
    expect(t.opened[1].params).toMatchObject({ address: SOL, chainType: 'solana' })
    t.kernel.hooks.sensitiveAction.tapPromise('test-refuse', async () => {
      throw new Error('Verification canceled')
    })
    await expect(t.api.exportWallet({ address: ETH })).rejects.toThrow('Verification canceled')
    expect(t.opened).toHaveLength(2)
  })

  it('closing the screen ends the export; another failure rejects', async () => {
    const t = await createTestKernel({ plugins: [ew(), walletExport()], user: wireUser({ accounts: [email, wallet(ETH, 'ethereum', 0)] }) })
    const open = vi.spyOn(t.kernel.screens, 'open')
    open.mockResolvedValueOnce({ ok: false, error: Object.assign(new Error('x'), { code: 'exited_auth_flow' }) as never })
    await expect(t.kernel.plugin('wallet-export').exportWallet()).resolves.toBeUndefined()
    open.mockResolvedValueOnce({ ok: false, error: Object.assign(new Error('boom'), { code: 'UNKNOWN_EMBEDDED_WALLET_ERROR' }) as never })
    await expect(t.kernel.plugin('wallet-export').exportWallet()).rejects.toThrow('boom')
  })
})

describe('the export page address and handshake', () => {
  it('names the wallet in the URL, never a token', () => {
    const path = exportPath('portico-test-xpd-00000001', { primaryAddress: ETH, address: ETH1, walletIndex: 1, width: 312, phraseExport: false, theme: 'dark', accentColor: '#5b4cdb', clientId: 'c1' })
    const u = new URL(path, 'http://127.0.0.1:8788')
    expect(u.pathname).toBe('/apps/portico-test-xpd-00000001/embedded-wallets/export')
    expect(Object.fromEntries(u.searchParams)).toEqual({ client_id: 'c1', primaryAddress: ETH, address: ETH1, walletIndex: '1', width: '312', phrase_export: 'false', theme: 'dark', accent_color: '#5b4cdb' })
  })

  it('the root and the wallet service origin come from the embedded-wallet plugin (imported wallets are their own root)', async () => {
    const IMP = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'
    const accounts = [email, wallet(ETH, 'ethereum', 0), wallet(ETH1, 'ethereum', 1), wallet(IMP, 'ethereum', 0, { imported: true, entropy_id: IMP })]
    const t = await createTestKernel({ plugins: [ew({}), walletExport()], user: wireUser({ accounts }), app: { embedded_wallet_config: { create_on_login: 'off', frame_url: 'http://127.0.0.1:8788/x' } } as never })
    const api = t.kernel.plugin('embedded-wallet')
    expect(api.frameOrigin()).toBe('http://127.0.0.1:8788')
    expect(api.wallets().map((w) => [w.address, w.entropyId, w.imported])).toEqual([
      [ETH, ETH, false],
      [ETH1, ETH, false],
      [IMP, IMP, true],
    ])
    const none = await createTestKernel({ plugins: [ew({}), walletExport()], user: wireUser({ accounts }) })
    expect(none.kernel.plugin('embedded-wallet').frameOrigin()).toBeNull()
    // Without the embedded-wallet plugin there is nothing to export.
    const bare = await createTestKernel({ plugins: [walletExport()], user: wireUser({ accounts }) })
    await expect(bare.kernel.plugin('wallet-export').exportWallet()).rejects.toThrow('Must have a Privy wallet before exporting')
  })

  it('sends the token only after ready, only to the frame origin, and ignores other windows and origins', async () => {
    const posted: { m: any; origin: string }[] = []
    const contentWindow = { postMessage: (m: any, origin: string) => posted.push({ m, origin }) }
    const listeners: ((e: any) => void)[] = []
    const win = { addEventListener: (_: string, l: any) => listeners.push(l), removeEventListener: () => {} } as any
    const origin = 'http://127.0.0.1:8788'
    const done = requestExport(await walletPage(), { contentWindow: contentWindow as any }, origin, async () => ({ accessToken: 'tok' }), { window: win, readyTimeoutMs: 5000 })
    const deliver = (e: any) => listeners.forEach((l) => l(e))
    const readyId = posted[0].m.id
    expect(posted[0]).toMatchObject({ m: { type: 'ready' }, origin })
    // Another origin, or another window, answering ready: ignored.
    deliver({ origin: 'http://evil.example', source: contentWindow, data: { protocol: 'portico-wallet-frame/1', id: readyId, data: {} } })
    deliver({ origin, source: {}, data: { protocol: 'portico-wallet-frame/1', id: readyId, data: {} } })
    expect(posted.some((p) => p.m.type === 'wallets:export')).toBe(false)
    deliver({ origin, source: contentWindow, data: { protocol: 'portico-wallet-frame/1', id: readyId, data: { version: 1 } } })
    await vi.waitFor(() => expect(posted.some((p) => p.m.type === 'wallets:export')).toBe(true))
    const exp = posted.find((p) => p.m.type === 'wallets:export')!
    expect(exp).toMatchObject({ origin, m: { payload: { accessToken: 'tok' } } })
    deliver({ origin, source: contentWindow, data: { protocol: 'portico-wallet-frame/1', id: exp.m.id, data: { exported: true } } })
    await expect(done).resolves.toEqual({ exported: true })
  })

  it('a frame error becomes a PorticoError (MFA refusal keeps its code)', async () => {
    const posted: any[] = []
    const contentWindow = { postMessage: (m: any) => posted.push(m) }
    const listeners: ((e: any) => void)[] = []
    const win = { addEventListener: (_: string, l: any) => listeners.push(l), removeEventListener: () => {} } as any
    const origin = 'http://127.0.0.1:8788'
    const done = requestExport(await walletPage(), { contentWindow: contentWindow as any }, origin, async () => ({ accessToken: 'tok' }), { window: win })
    const deliver = (data: any) => listeners.forEach((l) => l({ origin, source: contentWindow, data }))
    deliver({ protocol: 'portico-wallet-frame/1', id: posted[0].id, data: {} })
    await vi.waitFor(() => expect(posted.find((m) => m.type === 'wallets:export')).toBeTruthy())
    deliver({ protocol: 'portico-wallet-frame/1', id: posted.find((m) => m.type === 'wallets:export').id, error: { type: 'missing_or_invalid_mfa', message: 'MFA required' } })
    const err = await done.catch((e) => e)
    expect(isPorticoError(err)).toBe(true)
    expect(err).toMatchObject({ code: 'MISSING_MFA_CREDENTIALS', message: 'MFA required' })
  })
})

it('the entry and the lazily loaded flow name the same screen', () => expect(FLOW_SCREEN).toBe(EXPORT_SCREEN))

it('texts are the spec’s, word for word', () => {
  expect(WALLET_EXPORT_TEXTS).toMatchObject({
    title: 'Transfer wallet',
    mustBeAuthenticated: 'User must be authenticated before exporting their Privy wallet',
    mustHaveWallet: 'Must have a Privy wallet before exporting',
    noHdSolana: 'User does not have an HD Solana wallet.',
  })
})
