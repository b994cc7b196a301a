/**
 * The relay stand-in over real WebSockets: subscribe / publish / delivery with ack, the
 * mailbox for late subscribers, retention by ttl, fetchMessages, unsubscribe, redelivery of
 * unacknowledged messages, the session shortcuts, and JSON-RPC errors.
 */
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { clientIdOf, startRelay, type Relay } from './relay'

const jwt = (iss: string) => `e30.${Buffer.from(JSON.stringify({ iss })).toString('base64url')}.sig`

interface TestClient {
  call(method: string, params?: unknown): Promise<any>
  /** irn_subscription payloads received, in order. */
  deliveries: { rpcId: number; id: string; data: any }[]
  /** Wait until `n` deliveries arrived. */
  waitFor(n: number): Promise<void>
  /** Answer deliveries with `result: true` (default on). */
  ack: boolean
  close(): void
}

async function connect(relay: Relay, iss: string): Promise<TestClient> {
  const ws = new WebSocket(`${relay.url}/?auth=${jwt(iss)}&projectId=any-project&ua=test`)
  await new Promise((resolve, reject) => {
    ws.once('open', resolve)
    ws.once('error', reject)
  })
  let next = 1
  const waiting = new Map<number, (msg: any) => void>()
  const watchers: (() => void)[] = []
  const client: TestClient = {
    deliveries: [],
    ack: true,
    call(method, params) {
      const id = next++
      ws.send(JSON.stringify({ id, jsonrpc: '2.0', method, params }))
      return new Promise((resolve) => waiting.set(id, resolve))
    },
    waitFor(n) {
      return new Promise((resolve) => {
        const check = () => {
          if (client.deliveries.length >= n) resolve()
          else watchers.push(check)
        }
        check()
      })
    },
    close: () => ws.close(),
  }
  ws.on('message', (raw) => {
    const msg = JSON.parse(String(raw))
    if (msg.method === 'irn_subscription') {
      client.deliveries.push({ rpcId: msg.id, id: msg.params.id, data: msg.params.data })
      if (client.ack) ws.send(JSON.stringify({ id: msg.id, jsonrpc: '2.0', result: true }))
      for (const w of watchers.splice(0)) w()
      return
    }
    waiting.get(msg.id)?.(msg)
    waiting.delete(msg.id)
  })
  return client
}

let relay: Relay | null = null
afterEach(async () => {
  await relay?.close()
  relay = null
})

describe('WalletConnect relay stand-in', () => {
  it('reads the client id from the auth JWT without checking it', () => {
    expect(clientIdOf(`/?auth=${jwt('did:key:z6Mk-test')}&projectId=x`)).toBe('did:key:z6Mk-test')
    expect(clientIdOf('/?projectId=x')).toBeNull()
    expect(clientIdOf('/?auth=garbage')).toBeNull()
  })

  it('delivers a publish to the other subscribers (not the publisher) as irn_subscription, acknowledged', async () => {
    relay = await startRelay()
    const a = await connect(relay, 'did:key:a')
    const b = await connect(relay, 'did:key:b')
    const sub = await b.call('irn_subscribe', { topic: 't1' })
    expect(typeof sub.result).toBe('string')
    await a.call('irn_subscribe', { topic: 't1' })
    const pub = await a.call('irn_publish', { topic: 't1', message: 'hello', ttl: 300, tag: 1100 })
    expect(pub.result).toBe(true)
    await b.waitFor(1)
    expect(b.deliveries[0].id).toBe(sub.result)
    expect(b.deliveries[0].data).toMatchObject({ topic: 't1', message: 'hello', tag: 1100 })
    expect(typeof b.deliveries[0].data.publishedAt).toBe('number')
    expect(a.deliveries).toEqual([])
    await expect.poll(() => relay!.unacknowledged()).toBe(0)
    a.close()
    b.close()
  })

  it('keeps messages for late subscribers until the ttl runs out (retention)', async () => {
    let clock = 1_000_000
    relay = await startRelay({ now: () => clock })
    const a = await connect(relay, 'did:key:a')
    await a.call('irn_publish', { topic: 'short', message: 'gone soon', ttl: 10, tag: 1 })
    await a.call('irn_publish', { topic: 'long', message: 'still here', ttl: 300, tag: 1 })
    clock += 11_000
    expect(relay.kept('short')).toEqual([])
    expect(relay.kept('long')).toHaveLength(1)
    const b = await connect(relay, 'did:key:b')
    await b.call('irn_batchSubscribe', { topics: ['short', 'long'] })
    await b.waitFor(1)
    expect(b.deliveries.map((d) => d.data.message)).toEqual(['still here'])
    a.close()
    b.close()
  })

  it('fetchMessages returns what the client has not received, once', async () => {
    relay = await startRelay()
    const a = await connect(relay, 'did:key:a')
    await a.call('irn_publish', { topic: 'f1', message: 'm1', ttl: 300, tag: 1 })
    await a.call('irn_publish', { topic: 'f2', message: 'm2', ttl: 300, tag: 2 })
    const b = await connect(relay, 'did:key:b')
    const one = await b.call('irn_fetchMessages', { topic: 'f1' })
    expect(one.result).toEqual({ messages: [expect.objectContaining({ topic: 'f1', message: 'm1', tag: 1 })], hasMore: false })
    const batch = await b.call('irn_batchFetchMessages', { topics: ['f1', 'f2'] })
    expect(batch.result.messages.map((m: any) => m.message)).toEqual(['m2'])
    a.close()
    b.close()
  })

  it('sends unacknowledged deliveries again when the client comes back; acknowledged ones not', async () => {
    relay = await startRelay()
    const a = await connect(relay, 'did:key:a')
    const b1 = await connect(relay, 'did:key:b')
    b1.ack = false
    await b1.call('irn_subscribe', { topic: 'r' })
    await a.call('irn_publish', { topic: 'r', message: 'first', ttl: 300, tag: 1 })
    await b1.waitFor(1)
    expect(relay.unacknowledged()).toBe(1)
    b1.close()
    await expect.poll(() => relay!.subscriptions().filter((s) => s.clientId === 'did:key:b').length).toBe(0)
    const b2 = await connect(relay, 'did:key:b')
    await b2.call('irn_subscribe', { topic: 'r' })
    await b2.waitFor(1)
    expect(b2.deliveries[0].data.message).toBe('first')
    b2.close()
    await expect.poll(() => relay!.unacknowledged()).toBe(0)
    const b3 = await connect(relay, 'did:key:b')
    await b3.call('irn_subscribe', { topic: 'r' })
    await a.call('irn_publish', { topic: 'r', message: 'second', ttl: 300, tag: 1 })
    await b3.waitFor(1)
    expect(b3.deliveries.map((d) => d.data.message)).toEqual(['second'])
    a.close()
    b3.close()
  })

  it('stops delivering after irn_unsubscribe', async () => {
    relay = await startRelay()
    const a = await connect(relay, 'did:key:a')
    const b = await connect(relay, 'did:key:b')
    const { result: id } = await b.call('irn_subscribe', { topic: 'u' })
    expect((await b.call('irn_unsubscribe', { topic: 'u', id })).result).toBe(true)
    await a.call('irn_publish', { topic: 'u', message: 'unheard', ttl: 300, tag: 1 })
    await b.call('irn_subscribe', { topic: 'other' })
    await a.call('irn_publish', { topic: 'other', message: 'heard', ttl: 300, tag: 1 })
    await b.waitFor(1)
    expect(b.deliveries.map((d) => d.data.message)).toEqual(['heard'])
    a.close()
    b.close()
  })

  it('wc_proposeSession / wc_approveSession publish with their tags and subscribe the sender', async () => {
    relay = await startRelay()
    const dapp = await connect(relay, 'did:key:dapp')
    const wallet = await connect(relay, 'did:key:wallet')
    await wallet.call('irn_subscribe', { topic: 'pairing' })
    expect((await dapp.call('wc_proposeSession', { pairingTopic: 'pairing', sessionProposal: 'proposal', ttl: 300 })).result).toBe(true)
    await wallet.waitFor(1)
    expect(wallet.deliveries[0].data).toMatchObject({ topic: 'pairing', message: 'proposal', tag: 1100 })
    // The wallet approves; the dapp, subscribed to the pairing by its proposal, hears the answer.
    await wallet.call('wc_approveSession', { pairingTopic: 'pairing', sessionTopic: 'session2', sessionProposalResponse: 'approved', sessionSettlementRequest: 'settle2' })
    await dapp.waitFor(1)
    expect(dapp.deliveries.find((d) => d.data.message === 'approved')?.data.tag).toBe(1101)
    expect(relay.subscriptions()).toEqual(expect.arrayContaining([expect.objectContaining({ clientId: 'did:key:wallet', topic: 'session2' })]))
    expect(relay.kept('session2')[0]).toMatchObject({ message: 'settle2', tag: 1102 })
    dapp.close()
    wallet.close()
  })

  it('answers bad input with JSON-RPC errors, not a crash', async () => {
    relay = await startRelay()
    const a = await connect(relay, 'did:key:a')
    expect((await a.call('irn_nope', {})).error.code).toBe(-32601)
    expect((await a.call('irn_publish', { topic: 't' })).error.code).toBe(-32602)
    expect((await a.call('irn_subscribe', {})).error.code).toBe(-32602)
    expect((await a.call('irn_subscribe', { topic: 'ok' })).result).toBeTypeOf('string')
    a.close()
  })
})
