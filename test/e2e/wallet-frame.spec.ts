/**
 * The wallet frame in Chromium, at the protocol level (issue 14): the host page (its own
 * origin), the frame (the reference server's frame listener) and the API on three origins.
 * Creates a root with Ethereum and Solana wallets, connects, signs (verified with viem and
 * ed25519), recovers with the automatic method in a new browser profile, and checks the
 * security rules: another window's messages are ignored, the frame page's CSP, another
 * user's token gets nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Browser, type BrowserContext, type Page } from 'playwright-core'
import { recoverTransactionAddress, verifyMessage, verifyTypedData, type TransactionSerialized } from 'viem'
import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { launchBrowser } from './harness'
import { WALLET_APP, emailLogin, startWalletServers, type WalletServers } from './wallet-frame/servers'

let s: WalletServers
let browser: Browser
const contexts: BrowserContext[] = []

beforeAll(async () => {
  s = await startWalletServers()
  browser = await launchBrowser()
})
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {})
  await browser?.close()
  await s?.close()
})

async function hostPage(): Promise<Page> {
  const context = await browser.newContext()
  contexts.push(context)
  const page = await context.newPage()
  await page.goto(s.hostUrl)
  await page.waitForFunction(() => !!window.portico)
  await page.evaluate(([f, a]) => window.portico.connect(f, a), [s.frameUrl, WALLET_APP] as const)
  return page
}

const req = (page: Page, type: string, payload: unknown) => page.evaluate(([t, p]) => window.portico.request(t as string, p), [type, payload] as const)

const TYPED = {
  domain: { name: 'Portico', version: '1', chainId: 31337, verifyingContract: '0x0000000000000000000000000000000000000001' },
  types: { Mail: [{ name: 'to', type: 'address' }, { name: 'contents', type: 'string' }] },
  primaryType: 'Mail',
  message: { to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', contents: 'Hello' },
} as const

describe('wallet frame', { timeout: 90_000 }, () => {
  let token = ''
  let root: { entropyId: string; entropyIdVerifier: string; wallets: { address: string; chainType: string }[] }
  let page: Page

  it('creates Ethereum and Solana wallets and signs', async () => {
    token = (await emailLogin(s.apiUrl, 'frame-a@example.com')).token
    page = await hostPage()
    const created = await req(page, 'wallets:create', { accessToken: token, chainTypes: ['ethereum', 'solana'] })
    expect(created.error).toBeUndefined()
    root = created.data as never
    expect(root.wallets.map((w) => w.chainType)).toEqual(['ethereum', 'solana'])
    const eth = root.wallets[0].address as `0x${string}`
    expect(root.entropyId).toBe(eth)

    const msg = '0x' + Buffer.from('hello portico').toString('hex')
    const sig = await req(page, 'wallets:rpc', { accessToken: token, entropyId: root.entropyId, entropyIdVerifier: root.entropyIdVerifier, hdWalletIndex: 0, chainType: 'ethereum', request: { method: 'personal_sign', params: [msg, eth] } })
    expect(sig.error).toBeUndefined()
    expect(await verifyMessage({ address: eth, message: 'hello portico', signature: (sig.data as { data: `0x${string}` }).data })).toBe(true)

    const typed = await req(page, 'wallets:rpc', { accessToken: token, entropyId: root.entropyId, entropyIdVerifier: root.entropyIdVerifier, hdWalletIndex: 0, chainType: 'ethereum', request: { method: 'eth_signTypedData_v4', params: [eth, JSON.stringify(TYPED)] } })
    expect(await verifyTypedData({ address: eth, ...TYPED, signature: (typed.data as { data: `0x${string}` }).data })).toBe(true)

    const message = Buffer.from('solana hello')
    const sol = await req(page, 'wallets:rpc', { accessToken: token, entropyId: root.entropyId, entropyIdVerifier: root.entropyIdVerifier, hdWalletIndex: 0, chainType: 'solana', request: { method: 'signMessage', params: { message: message.toString('base64') } } })
    const signature = Buffer.from((sol.data as { data: { signature: string } }).data.signature, 'base64')
    expect(ed25519.verify(signature, message, base58.decode(root.wallets[1].address))).toBe(true)

    // eth_signTransaction: a complete EIP-1559 request, signed and serialised in the frame.
    const ref = { accessToken: token, entropyId: root.entropyId, entropyIdVerifier: root.entropyIdVerifier, hdWalletIndex: 0 }
    const tx = { chainId: 31337, nonce: 0, to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', value: '0x2386f26fc10000', gas: '0x5208', maxFeePerGas: '0x77359400', maxPriorityFeePerGas: '0x3b9aca00' }
    const signedTx = await req(page, 'wallets:rpc', { ...ref, chainType: 'ethereum', request: { method: 'eth_signTransaction', params: [tx] } })
    const serialized = (signedTx.data as { data: TransactionSerialized }).data
    expect(await recoverTransactionAddress({ serializedTransaction: serialized })).toBe(eth)

    // Solana signTransaction: a legacy transfer with the wallet as fee payer; the signature verifies.
    const solKey = new PublicKey(root.wallets[1].address)
    const transfer = new Transaction({ feePayer: solKey, recentBlockhash: Keypair.generate().publicKey.toBase58() }).add(
      SystemProgram.transfer({ fromPubkey: solKey, toPubkey: Keypair.generate().publicKey, lamports: 1000 }),
    )
    const wire = transfer.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64')
    const signedSol = await req(page, 'wallets:rpc', { ...ref, chainType: 'solana', request: { method: 'signTransaction', params: { transaction: wire } } })
    expect(signedSol.error).toBeUndefined()
    const back = Transaction.from(Buffer.from((signedSol.data as { data: { signedTransaction: string } }).data.signedTransaction, 'base64'))
    expect(back.verifySignatures()).toBe(true)
    // A transaction that does not involve the wallet is refused with the spec's text.
    const stranger = Keypair.generate().publicKey
    const foreign = new Transaction({ feePayer: stranger, recentBlockhash: Keypair.generate().publicKey.toBase58() }).add(
      SystemProgram.transfer({ fromPubkey: stranger, toPubkey: stranger, lamports: 1 }),
    )
    const refused = await req(page, 'wallets:rpc', { ...ref, chainType: 'solana', request: { method: 'signTransaction', params: { transaction: foreign.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64') } } })
    expect(refused.error?.message).toBe(`Transaction does not contain public key ${root.wallets[1].address}`)

    const again = await req(page, 'wallets:create', { accessToken: token, chainTypes: ['ethereum'] })
    expect(again.error?.message).toBe('User already has an embedded wallet.')
  })

  it("a new browser profile has no device share: connect says so, privy recovery restores it after the step-up (the e-mailed code)", async () => {
    const fresh = await hostPage()
    const ref = { accessToken: token, entropyId: root.entropyId, entropyIdVerifier: root.entropyIdVerifier }
    const conn = await req(fresh, 'wallets:connect', ref)
    expect(conn.error?.type).toBe('wallet_not_on_device')
    // A new device gets the recovery share only after a step-up the token does not carry (issue 26).
    const refused = await req(fresh, 'wallets:recover', { ...ref, recoveryMethod: 'privy' })
    expect(refused.error).toMatchObject({ type: 'device_step_up_required', message: 'Confirm it’s you to use your wallet on this device.' })
    const start = await req(fresh, 'wallets:step-up-start', ref)
    expect(start.data).toEqual({ method: 'email', to: 'f•••@example.com' })
    const list = (await (await fetch(`${s.apiUrl}/dev/outbox?to=${encodeURIComponent('frame-a@example.com')}`, { headers: { accept: 'application/json' } })).json()) as { code: string }[]
    const wrong = await req(fresh, 'wallets:step-up-verify', { ...ref, code: list[0].code === '000000' ? '111111' : '000000' })
    expect(wrong.error?.message).toBe('Invalid code. Please try again.')
    expect((await req(fresh, 'wallets:step-up-verify', { ...ref, code: list[0].code })).error).toBeUndefined()
    const rec = await req(fresh, 'wallets:recover', { ...ref, recoveryMethod: 'privy' })
    expect(rec.error).toBeUndefined()
    expect((await req(fresh, 'wallets:connect', ref)).error).toBeUndefined()
    const sig = await req(fresh, 'wallets:rpc', { ...ref, hdWalletIndex: 0, chainType: 'ethereum', request: { method: 'personal_sign', params: ['0x01', root.entropyId] } })
    expect(await verifyMessage({ address: root.entropyId as `0x${string}`, message: { raw: '0x01' }, signature: (sig.data as { data: `0x${string}` }).data })).toBe(true)
  })

  it('moving to a password and changing it splits the root afresh: only the newest password recovers', async () => {
    const owner = (await emailLogin(s.apiUrl, 'frame-c@example.com')).token
    const first = await hostPage()
    const made = await req(first, 'wallets:create', { accessToken: owner, chainTypes: ['ethereum'] })
    expect(made.error).toBeUndefined()
    const r = made.data as { entropyId: string; entropyIdVerifier: string }
    const ref = { accessToken: owner, entropyId: r.entropyId, entropyIdVerifier: r.entropyIdVerifier }
    const sign = async (p: Page) => {
      const sig = await req(p, 'wallets:rpc', { ...ref, hdWalletIndex: 0, chainType: 'ethereum', request: { method: 'personal_sign', params: ['0x02', r.entropyId] } })
      expect(sig.error).toBeUndefined()
      return verifyMessage({ address: r.entropyId as `0x${string}`, message: { raw: '0x02' }, signature: (sig.data as { data: `0x${string}` }).data })
    }
    // privy -> user-passcode, then a password update (user-passcode -> user-passcode).
    const set1 = await req(first, 'wallets:set-recovery', { ...ref, recoveryMethod: 'user-passcode', recoveryPassword: 'first-pass1' })
    expect(set1.error).toBeUndefined()
    const set2 = await req(first, 'wallets:set-recovery', { ...ref, recoveryMethod: 'user-passcode', recoveryPassword: 'second-pass2' })
    expect(set2.error).toBeUndefined()
    expect((set2.data as { recoveryMethod: string }).recoveryMethod).toBe('user-passcode')
    // This device kept up: its new device share combines with the server's new auth share.
    await req(first, 'wallets:clear', {})
    expect(await sign(first)).toBe(true)
    // A new profile: the old password no longer opens anything, the new one does.
    const fresh = await hostPage()
    const old = await req(fresh, 'wallets:recover', { ...ref, recoveryMethod: 'user-passcode', recoveryPassword: 'first-pass1' })
    expect(old.error?.type).toBe('invalid_recovery_pin')
    const rec = await req(fresh, 'wallets:recover', { ...ref, recoveryMethod: 'user-passcode', recoveryPassword: 'second-pass2' })
    expect(rec.error).toBeUndefined()
    expect(await sign(fresh)).toBe(true)
  })

  it("another user's token gets no share and no signature", async () => {
    const other = (await emailLogin(s.apiUrl, 'frame-b@example.com')).token
    const fresh = await hostPage()
    const ref = { accessToken: other, entropyId: root.entropyId, entropyIdVerifier: root.entropyIdVerifier }
    const rec = await req(fresh, 'wallets:recover', { ...ref, recoveryMethod: 'privy' })
    expect(rec.error?.message).toBe('Embedded wallet not found')
    // The device that holds the share still needs the owner's token for the auth share.
    const sig = await req(page, 'wallets:rpc', { ...ref, hdWalletIndex: 0, chainType: 'ethereum', request: { method: 'personal_sign', params: ['0x01', root.entropyId] } })
    expect(sig.error?.message).toBe('Embedded wallet not found')
  })

  it('ignores messages from another window or origin', async () => {
    // Another window of the allowed origin (a popup of the host page) and a frame of another
    // origin (the API's) inside the host page both post to the wallet frame: neither gets a
    // reply, while the parent's request, sent after them, does (the frame answers in order).
    const evil = await page.evaluate(() => (document.querySelector('iframe.portico-wallet-frame') as HTMLIFrameElement).src)
    expect(evil).toContain('/embedded-wallets')
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.evaluate((u) => void window.open(u), s.hostUrl)])
    await popup.waitForFunction(() => !!window.portico)
    await popup.evaluate(() => {
      ;(window as unknown as { got: unknown[] }).got = []
      window.addEventListener('message', (e) => (window as unknown as { got: unknown[] }).got.push(e.data))
      const target = (window.opener as Window).frames[0]
      target.postMessage({ protocol: 'portico-wallet-frame/1', id: 'from-popup', type: 'ready', payload: {} }, '*')
    })
    await page.evaluate((api) => {
      const f = document.createElement('iframe')
      f.src = `${api}/health`
      f.id = 'other-origin'
      document.body.appendChild(f)
      return new Promise((r) => (f.onload = r))
    }, s.apiUrl)
    const other = page.frames().find((f) => f.url().startsWith(s.apiUrl))!
    await other.evaluate(() => {
      ;(window as unknown as { got: unknown[] }).got = []
      window.addEventListener('message', (e) => (window as unknown as { got: unknown[] }).got.push(e.data))
      window.parent.frames[0].postMessage({ protocol: 'portico-wallet-frame/1', id: 'from-other-origin', type: 'ready', payload: {} }, '*')
    })
    // Host and frame on one site (127.0.0.1): the frame keeps its storage ('persistent').
    const ok = await req(page, 'ready', {})
    expect(ok.data).toEqual({ version: 1, storage: 'persistent' })
    // A second round trip from the parent, so anything the frame sent meanwhile has arrived.
    expect((await req(page, 'ready', {})).data).toEqual({ version: 1, storage: 'persistent' })
    expect(await popup.evaluate(() => (window as unknown as { got: unknown[] }).got)).toEqual([])
    expect(await other.evaluate(() => (window as unknown as { got: unknown[] }).got)).toEqual([])
  })

  it('serves the frame under its own strict CSP', async () => {
    const res = await fetch(`${s.frameUrl}/apps/${WALLET_APP}/embedded-wallets?client_id=x`)
    const csp = res.headers.get('content-security-policy')!
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain(`connect-src ${s.apiUrl}`)
    expect(csp).toContain(`frame-ancestors ${s.hostUrl}`)
    expect((await fetch(`${s.frameUrl}/apps/portico-test-nope-00000001/embedded-wallets`)).status).toBe(404)
  })
})
