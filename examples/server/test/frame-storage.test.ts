/**
 * The wallet frame where its storage is blocked or partitioned (issue 26, finding 8): the
 * storage check at start-up (a real write/read round trip, Storage Access where the user
 * allowed it already, else memory for the session), the store that keeps a failed write in
 * memory, the clear text instead of the browser's IndexedDB message, and creation's order (this
 * device keeps its share before the server stores its shares) driven in Node against a real
 * server: a store whose every write throws still gives a wallet that signs for the session.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { verifyMessage } from 'viem'
import { FrameFailure, createApi, type FrameContext } from '../frame/context'
import { loadDeviceShare } from '../frame/device-store'
import { handlerFor } from '../frame/handlers/index'
import { STORAGE_TEXTS, checkStorage, isStorageError, probe, resilientStore, storageMode, type StorageAccessDocument } from '../frame/storage-check'
import { memoryStore, useFrameStore, type FrameStore } from '../frame/storage'
import type { Store } from '../src/core/store'
import { DEMO, openTestStore, startTestServer, uniqueEmail, type TestServer } from './helpers'

/** The wallet frame's origin in the server's settings (embedded wallets on; not a credential: calls carry device proofs). */
const FRAME = 'http://127.0.0.1:48791'
/** What Chromium's IndexedDB answers a third-party frame whose storage is blocked. */
const DENIAL = 'The user denied permission to access the database.'
const denial = () => new DOMException(DENIAL, 'UnknownError')

/** A store over IndexedDB that the browser refuses (every call fails with its denial). */
function refusedStore(): FrameStore {
  return {
    kind: 'indexeddb',
    get: async () => Promise.reject(denial()),
    put: async () => Promise.reject(denial()),
    delete: async () => Promise.reject(denial()),
  }
}

/** A working store that reports itself as IndexedDB (what a granted handle's IndexedDB gives). */
function workingIdbStore(): FrameStore {
  const m = memoryStore()
  return { kind: 'indexeddb', get: m.get, put: m.put, delete: m.delete }
}

/** A store whose reads work but whose writes throw (quota, site data cleared mid-flow). */
function failingWrites(): FrameStore & { puts: number } {
  const m = memoryStore()
  const s = {
    kind: 'indexeddb' as const,
    puts: 0,
    get: m.get,
    put: async () => {
      s.puts++
      throw denial()
    },
    delete: m.delete,
  }
  return s
}

const pageIdb = { name: 'the page IndexedDB' } as unknown as IDBFactory
const handleIdb = { name: 'the Storage Access handle IndexedDB' } as unknown as IDBFactory

describe('the storage check at start-up', () => {
  it('Node (no IndexedDB): memory, session-only', async () => {
    const r = await checkStorage({})
    expect(r).toMatchObject({ storage: 'session', via: 'memory' })
    expect(r.store.kind).toBe('memory')
  })

  it('a working IndexedDB passes the write/read/delete round trip: persistent, nothing left behind', async () => {
    const store = workingIdbStore()
    const r = await checkStorage({ indexedDB: pageIdb, storeFor: () => store })
    expect(r).toMatchObject({ storage: 'persistent', via: 'indexeddb' })
    expect(r.store).toBe(store)
    const keys: string[] = []
    const spy: FrameStore = { ...store, put: async (s, k, v) => (keys.push(k), store.put(s, k, v)) }
    expect(await probe(spy)).toBe(true)
    expect(await store.get('keys', keys[0])).toBeUndefined()
  })

  it('IndexedDB refused (third-party storage blocked) and no Storage Access API: memory, session-only', async () => {
    const r = await checkStorage({ indexedDB: pageIdb, storeFor: refusedStore })
    expect(r).toMatchObject({ storage: 'session', via: 'memory' })
  })

  it('an IndexedDB that never answers counts as unavailable after the time-out', async () => {
    const hanging: FrameStore = { kind: 'indexeddb', get: () => new Promise(() => {}), put: () => new Promise(() => {}), delete: () => new Promise(() => {}) }
    const t0 = Date.now()
    const r = await checkStorage({ indexedDB: pageIdb, storeFor: () => hanging, timeoutMs: 50 })
    expect(r.storage).toBe('session')
    expect(Date.now() - t0).toBeLessThan(5000)
  })

  it('Storage Access not yet allowed (permission prompt): the hidden frame does not ask (no gesture), session-only', async () => {
    const asked: unknown[] = []
    const document: StorageAccessDocument = { requestStorageAccess: async (t) => (asked.push(t), { indexedDB: handleIdb }) }
    const r = await checkStorage({ indexedDB: pageIdb, document, permissions: { query: async () => ({ state: 'prompt' }) }, storeFor: refusedStore })
    expect(r.storage).toBe('session')
    expect(asked).toEqual([])
  })

  it('Storage Access allowed before (permission granted): asks for IndexedDB and uses the handle: persistent', async () => {
    const asked: unknown[] = []
    const names: string[] = []
    const document: StorageAccessDocument = { requestStorageAccess: async (t) => (asked.push(t), { indexedDB: handleIdb }) }
    const permissions = { query: async (d: { name: string }) => (names.push(d.name), { state: 'granted' }) }
    const granted = workingIdbStore()
    const r = await checkStorage({ indexedDB: pageIdb, document, permissions, storeFor: (f) => (f === handleIdb ? granted : refusedStore()) })
    expect(r).toMatchObject({ storage: 'persistent', via: 'storage-access' })
    expect(r.store).toBe(granted)
    expect(names).toEqual(['storage-access'])
    expect(asked).toEqual([{ indexedDB: true }])
  })

  it('Storage Access whose IndexedDB never answers: session-only within one time budget for all its steps', async () => {
    const hanging: FrameStore = { kind: 'indexeddb', get: () => new Promise(() => {}), put: () => new Promise(() => {}), delete: () => new Promise(() => {}) }
    const t0 = Date.now()
    const r = await checkStorage({
      indexedDB: pageIdb,
      document: { requestStorageAccess: () => new Promise((resolve) => setTimeout(() => resolve({ indexedDB: handleIdb }), 1000)) },
      permissions: { query: () => new Promise((resolve) => setTimeout(() => resolve({ state: 'granted' }), 1000)) },
      storeFor: (f) => (f === handleIdb ? hanging : refusedStore()),
      timeoutMs: 1500,
    })
    expect(r.storage).toBe('session')
    // Query (1 s) + request (1 s) + a hanging probe: cut at the one budget (1.5 s), not after 3.5 s.
    expect(Date.now() - t0).toBeLessThan(3000)
  })

  it('Storage Access granted but its IndexedDB refused too, or the request rejected: session-only', async () => {
    const permissions = { query: async () => ({ state: 'granted' }) }
    const handleRefused = await checkStorage({ indexedDB: pageIdb, document: { requestStorageAccess: async () => ({ indexedDB: handleIdb }) }, permissions, storeFor: refusedStore })
    expect(handleRefused.storage).toBe('session')
    const rejected = await checkStorage({
      indexedDB: pageIdb,
      document: { requestStorageAccess: async () => Promise.reject(new DOMException('requestStorageAccess not allowed', 'NotAllowedError')) },
      permissions,
      storeFor: refusedStore,
    })
    expect(rejected.storage).toBe('session')
  })
})

describe('the store that keeps a failed write in memory', () => {
  it('a write that fails keeps the value for the page session and turns the frame session-only', async () => {
    const s = resilientStore(failingWrites())
    expect(s.kind).toBe('indexeddb')
    await s.put('device-shares', 'k', 'sealed share')
    expect(s.kind).toBe('memory')
    expect(await s.get('device-shares', 'k')).toBe('sealed share')
  })

  it('a read that fails answers from what this page saw, else storage_unavailable with a clear text (never the IndexedDB message)', async () => {
    const inner = workingIdbStore()
    await inner.put('keys', 'seen', 1)
    let broken = false
    const flaky: FrameStore = {
      kind: 'indexeddb',
      get: (st, k) => (broken ? Promise.reject(denial()) : inner.get(st, k)),
      put: (st, k, v) => (broken ? Promise.reject(denial()) : inner.put(st, k, v)),
      delete: (st, k) => (broken ? Promise.reject(denial()) : inner.delete(st, k)),
    }
    await inner.put('keys', 'unseen', 2)
    const s = resilientStore(flaky)
    expect(await s.get('keys', 'seen')).toBe(1)
    broken = true
    expect(await s.get('keys', 'seen')).toBe(1)
    expect(s.kind).toBe('memory')
    const err = await resilientStore(refusedStore())
      .get('keys', 'unseen')
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(FrameFailure)
    expect(err).toMatchObject({ type: 'storage_unavailable', message: STORAGE_TEXTS.unavailable })
    expect((err as Error).message).not.toContain('denied permission')
  })

  it('an IndexedDB error that escapes a store is recognised (the frame replies storage_unavailable with the clear text)', () => {
    expect(isStorageError(denial())).toBe(true)
    expect(isStorageError(new DOMException('Quota exceeded', 'QuotaExceededError'))).toBe(true)
    expect(isStorageError(new Error('Request failed (500)'))).toBe(false)
    expect(isStorageError(new RangeError('bad index'))).toBe(false)
  })
})

describe('creation where the frame cannot keep its share', () => {
  let store: Store
  let s: TestServer
  beforeAll(async () => {
    store = await openTestStore()
    s = await startTestServer(store, { wallets: { frameOrigin: FRAME } })
  })
  afterAll(async () => {
    await s?.close()
    await store?.close()
  })
  afterEach(() => useFrameStore(memoryStore()))

  /**
   * The frame's view of the server: the real API client (frame/context.ts createApi: a device
   * proof by this frame's device key, kept in the frame's store, and a server nonce on every
   * call), wrapped so `seen` records each call (path, body) and the device share held at that moment.
   */
  function frameCtx(seen: { path: string; body: any; deviceShareHeld: boolean }[]): FrameContext {
    const config = { appId: DEMO, apiUrl: s.url, allowedOrigins: [] }
    const api = createApi(config)
    return {
      config,
      origin: 'http://localhost:5173',
      async api(path, body, accessToken, opts) {
        const b = body as { entropy_id?: string }
        const held = b?.entropy_id ? !!(await loadDeviceShare(DEMO, b.entropy_id)) : false
        seen.push({ path, body, deviceShareHeld: held })
        return api(path, body, accessToken, opts)
      },
    }
  }

  async function login() {
    const r = await s.emailLogin(uniqueEmail('storage'))
    expect(r.status).toBe(200)
    return r.body.token as string
  }

  it('a store whose writes throw: the share stays in memory, the wallet signs for the session, the server is told session_only', async () => {
    const writes = failingWrites()
    useFrameStore(resilientStore(writes))
    expect(storageMode()).toBe('persistent')
    const token = await login()
    const seen: { path: string; body: any; deviceShareHeld: boolean }[] = []
    const ctx = frameCtx(seen)
    const created = await handlerFor('wallets:create')!({ accessToken: token, chainTypes: ['ethereum'] }, ctx)
    expect(writes.puts).toBeGreaterThan(0)
    expect(created.storage).toBe('session')
    expect(storageMode()).toBe('session')
    const create = seen.find((c) => c.path === '/wallets/create')!
    // This device held its share before the server stored its own.
    expect(create.deviceShareHeld).toBe(true)
    expect(create.body.session_only).toBe(true)
    expect(await loadDeviceShare(DEMO, created.entropyId)).not.toBeNull()

    // Forget the cached key: the next signature rebuilds it from the share in memory and the server's.
    await handlerFor('wallets:clear')!({}, ctx)
    const address = created.wallets[0].address as `0x${string}`
    const message = 'Hello from a frame without storage'
    const signed = await handlerFor('wallets:rpc')!(
      {
        accessToken: token,
        entropyId: created.entropyId,
        entropyIdVerifier: created.entropyIdVerifier,
        hdWalletIndex: 0,
        chainType: 'ethereum',
        request: { method: 'personal_sign', params: [`0x${Buffer.from(message).toString('hex')}`, address] },
      },
      ctx,
    )
    expect(seen.some((c) => c.path === '/wallets/auth_share')).toBe(true)
    expect(await verifyMessage({ address, message, signature: signed.data as `0x${string}` })).toBe(true)
  })

  it('persistent storage: the reply says persistent and the server is told the share outlives the tab', async () => {
    useFrameStore(resilientStore(workingIdbStore()))
    const token = await login()
    const seen: { path: string; body: any; deviceShareHeld: boolean }[] = []
    const created = await handlerFor('wallets:create')!({ accessToken: token, chainTypes: ['ethereum'] }, frameCtx(seen))
    expect(created.storage).toBe('persistent')
    expect(seen.find((c) => c.path === '/wallets/create')!.body.session_only).toBe(false)
  })

  it('a creation the server refuses leaves no device share behind', async () => {
    useFrameStore(resilientStore(memoryStore()))
    const token = await login()
    const seen: { path: string; body: any; deviceShareHeld: boolean }[] = []
    const ctx = frameCtx(seen)
    await handlerFor('wallets:create')!({ accessToken: token, chainTypes: ['ethereum'] }, ctx)
    const refused = await handlerFor('wallets:create')!({ accessToken: token, chainTypes: ['ethereum'] }, ctx).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(FrameFailure)
    expect((refused as Error).message).toBe('User already has an embedded wallet.')
    const second = seen.filter((c) => c.path === '/wallets/create')[1]
    expect(second.deviceShareHeld).toBe(true)
    expect(await loadDeviceShare(DEMO, second.body.entropy_id)).toBeNull()
  })
})
