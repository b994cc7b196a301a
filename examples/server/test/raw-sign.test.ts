/**
 * Raw hash signing (secp256k1_sign, issue 26): a 32-byte hash can be a transaction or a message
 * nobody can read, so the frame refuses it unless the app's settings turn it on
 * (embeddedWallets.allowRawSign, served with the frame page: the host page cannot set it).
 */
import { recoverAddress, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FrameFailure } from '../frame/context'
import { handlerFor } from '../frame/handlers/index'
import { clearSession } from '../frame/session'
import { appsFrom, loadApps } from '../src/config'
import { createFrameServer } from '../src/frame-server'
import type { Store } from '../src/core/store'
import { testDevice } from './device-client'
import { APPS_FILE, DEMO, openTestStore, startTestServer, uniqueEmail, type TestServer } from './helpers'

let store: Store
let s: TestServer
beforeAll(async () => {
  store = await openTestStore()
  s = await startTestServer(store, { wallets: { frameOrigin: 'http://127.0.0.1:48793', recoveryKey: 'raw-sign-test-recovery-key-000000000000000026' } })
}, 120_000)
afterAll(async () => {
  await s?.close()
  await store?.close()
})

const HASH = `0x${'ab'.repeat(32)}` as Hex

async function wallet() {
  const token = (await s.emailLogin(uniqueEmail('raw'))).body.token as string
  const d = testDevice(s)
  const w = await handlerFor('wallets:create')!({ accessToken: token, chainTypes: ['ethereum'] } as never, d.ctx())
  clearSession()
  return { d, ref: { accessToken: token, entropyId: w.entropyId, entropyIdVerifier: w.entropyIdVerifier } }
}

const rawSign = (ctx: ReturnType<ReturnType<typeof testDevice>['ctx']>, ref: Record<string, unknown>) =>
  handlerFor('wallets:rpc')!({ ...ref, chainType: 'ethereum', hdWalletIndex: 0, request: { method: 'secp256k1_sign', params: [HASH] } } as never, ctx)

describe('secp256k1_sign', () => {
  it('is refused with a clear text when the app does not allow it (the default)', async () => {
    const { d, ref } = await wallet()
    const err = await rawSign(d.ctx(), ref).catch((e) => e)
    expect(err).toBeInstanceOf(FrameFailure)
    expect(err.message).toBe('This app does not allow signing raw hashes: a raw hash can be a transaction or message you cannot check.')
  })

  it('signs when the app allows it (embeddedWallets.allowRawSign)', async () => {
    const { d, ref } = await wallet()
    const ctx = d.ctx()
    const r = (await rawSign({ ...ctx, config: { ...ctx.config, allowRawSign: true } }, ref)) as { data: Hex }
    expect(await recoverAddress({ hash: HASH, signature: r.data })).toBe(ref.entropyId)
  })

  it("the frame page carries the app's setting: off by default, on when the app sets it", async () => {
    const demo = loadApps(APPS_FILE).get(DEMO)!
    const page = async (allowRawSign?: boolean) => {
      const apps = appsFrom([{ ...demo, embeddedWallets: { ...demo.embeddedWallets, ...(allowRawSign === undefined ? {} : { allowRawSign }) } }])
      const html = await (await createFrameServer({ apps, apiUrl: 'http://127.0.0.1:1', minify: false }).request(`/apps/${DEMO}/embedded-wallets`)).text()
      return JSON.parse(/<script type="application\/json" id="portico-frame-config">(.*?)<\/script>/.exec(html)![1]).allowRawSign
    }
    expect(await page()).toBe(false)
    expect(await page(true)).toBe(true)
  })
})
