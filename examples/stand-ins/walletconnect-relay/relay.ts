/**
 * A local stand-in for the WalletConnect relay (`wss://relay.walletconnect.org`), which this
 * network cannot reach. It speaks the relay's JSON-RPC over WebSocket as WalletConnect
 * documents it (specs.walletconnect.com, "Relay RPC"), enough for two real
 * `@walletconnect/sign-client`s (the dapp in the page, the wallet in the test) to pair,
 * settle a session and exchange requests:
 *
 * - `irn_subscribe {topic}` → subscription id; `irn_batchSubscribe {topics}` → ids;
 *   `irn_unsubscribe {topic, id}`, `irn_batchUnsubscribe {subscriptions}` → true.
 * - `irn_publish {topic, message, ttl, tag, ...}` → true; the message is kept for `ttl`
 *   seconds and delivered to every other subscriber of the topic as
 *   `irn_subscription {id, data: {topic, message, publishedAt, tag, attestation?}}`, which the
 *   client acknowledges (`result: true`). A subscriber that was not connected, or had not yet
 *   subscribed, gets the message when it subscribes (or fetches), until the ttl runs out.
 *   Unacknowledged deliveries are sent again on the client's next subscribe.
 * - `irn_fetchMessages {topic}` / `irn_batchFetchMessages {topics}` → `{messages, hasMore}`:
 *   the kept messages this client has not received yet.
 * - `irn_batchPublish {messages}`; the session shortcuts of sign-client 2.2x
 *   `wc_proposeSession {pairingTopic, sessionProposal, ttl, attestation}` (published on the
 *   pairing topic, tag 1100; the proposer is subscribed to it) and `wc_approveSession
 *   {pairingTopic, sessionTopic, sessionProposalResponse, sessionSettlementRequest}` (tags 1101
 *   and 1102; the approver is subscribed to the session topic) → true.
 *
 * The auth JWT in the URL query (`?auth=...&projectId=...`) is read for the client's id (its
 * `iss`, a did:key) without checking a signature or a project: any project id is accepted.
 * No message leaves this process. The handler module the tests import; `main.ts` starts it on
 * 8798 for `npm start`.
 */
import { WebSocketServer, type WebSocket } from 'ws'
import type { AddressInfo } from 'node:net'
import { createHash } from 'node:crypto'

export interface RelayMessage {
  topic: string
  message: string
  /** ms since the epoch. */
  publishedAt: number
  tag: number
  attestation?: string
  /** ms since the epoch. */
  expiresAt: number
  /** Hash of the message: one id per distinct message on a topic. */
  hash: string
  /** Client id of the publisher (not delivered back to it). */
  from: string
}

interface Client {
  id: string
  socket: WebSocket
  /** subscription id → topic */
  subs: Map<string, string>
}

export interface RelayOptions {
  port?: number
  host?: string
  /** Clock (ms), for the retention tests. */
  now?: () => number
  /** Called for every JSON-RPC request the relay receives (tests, logging). */
  onRequest?: (method: string, params: unknown, clientId: string) => void
}

export interface Relay {
  /** `ws://host:port` */
  url: string
  port: number
  /** Messages currently kept (not expired), per topic. */
  kept(topic?: string): RelayMessage[]
  /** Topics a client (by id) is subscribed to. */
  subscriptions(): { clientId: string; topic: string; id: string }[]
  /** Deliveries sent and not yet acknowledged. */
  unacknowledged(): number
  /** Drop every connection (a relay restart; kept messages stay). */
  dropConnections(): void
  close(): Promise<void>
}

/** The spec's default ttl when a publish gives none (5 minutes). */
const DEFAULT_TTL_S = 300
/** Longest ttl the relay accepts (30 days), as the real relay does. */
const MAX_TTL_S = 30 * 24 * 3600

const sha = (s: string) => createHash('sha256').update(s).digest('hex')

/** The client id (JWT `iss`) of a relay URL's `auth` query parameter, unchecked. */
export function clientIdOf(url: string | undefined): string | null {
  try {
    const auth = new URL(url ?? '', 'ws://relay.invalid').searchParams.get('auth')
    if (!auth) return null
    const payload = JSON.parse(Buffer.from(auth.split('.')[1] ?? '', 'base64url').toString('utf8'))
    return typeof payload?.iss === 'string' ? payload.iss : null
  } catch {
    return null
  }
}

export async function startRelay(options: RelayOptions = {}): Promise<Relay> {
  const now = options.now ?? Date.now
  const wss = new WebSocketServer({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' })
  await new Promise<void>((resolve, reject) => {
    wss.once('listening', resolve)
    wss.once('error', reject)
  })
  const port = (wss.address() as AddressInfo).port
  const messages = new Map<string, RelayMessage[]>()
  const clients = new Set<Client>()
  /** clientId → message hashes it acknowledged (or fetched). */
  const received = new Map<string, Set<string>>()
  /** our request id → what is waiting for its ack */
  const pending = new Map<number, { clientId: string; hash: string }>()
  let nextId = 0
  const rpcId = () => Date.now() * 1000 + (nextId++ % 1000)

  const seen = (clientId: string) => {
    let s = received.get(clientId)
    if (!s) received.set(clientId, (s = new Set()))
    return s
  }
  const live = (topic: string): RelayMessage[] => {
    const list = (messages.get(topic) ?? []).filter((m) => m.expiresAt > now())
    if (list.length) messages.set(topic, list)
    else messages.delete(topic)
    return list
  }
  const send = (client: Client, payload: unknown) => {
    if (client.socket.readyState === client.socket.OPEN) client.socket.send(JSON.stringify(payload))
  }
  const deliver = (client: Client, subId: string, m: RelayMessage) => {
    const id = rpcId()
    pending.set(id, { clientId: client.id, hash: m.hash })
    const data: Record<string, unknown> = { topic: m.topic, message: m.message, publishedAt: m.publishedAt, tag: m.tag }
    if (m.attestation) data.attestation = m.attestation
    send(client, { id, jsonrpc: '2.0', method: 'irn_subscription', params: { id: subId, data } })
  }
  const waiting = (clientId: string, hash: string) => [...pending.values()].some((p) => p.clientId === clientId && p.hash === hash)

  const publish = (from: Client, p: { topic?: unknown; message?: unknown; ttl?: unknown; tag?: unknown; attestation?: unknown }) => {
    if (typeof p.topic !== 'string' || !p.topic || typeof p.message !== 'string' || !p.message) throw new Error('topic and message are required')
    const ttl = typeof p.ttl === 'number' && p.ttl > 0 ? Math.min(p.ttl, MAX_TTL_S) : DEFAULT_TTL_S
    const publishedAt = now()
    const m: RelayMessage = {
      topic: p.topic,
      message: p.message,
      publishedAt,
      tag: typeof p.tag === 'number' ? p.tag : 0,
      attestation: typeof p.attestation === 'string' ? p.attestation : undefined,
      expiresAt: publishedAt + ttl * 1000,
      hash: sha(p.topic + p.message),
      from: from.id,
    }
    const list = live(p.topic)
    if (!list.some((x) => x.hash === m.hash)) messages.set(p.topic, [...list, m])
    for (const c of clients) {
      if (c.id === from.id) continue
      for (const [subId, topic] of c.subs) if (topic === m.topic && !seen(c.id).has(m.hash)) deliver(c, subId, m)
    }
  }
  const subscribe = (client: Client, topic: unknown): string => {
    if (typeof topic !== 'string' || !topic) throw new Error('topic is required')
    const id = sha(topic + client.id)
    client.subs.set(id, topic)
    // Kept messages this client has not received: delivered now (the mailbox).
    queueMicrotask(() => {
      for (const m of live(topic)) if (m.from !== client.id && !seen(client.id).has(m.hash) && !waiting(client.id, m.hash)) deliver(client, id, m)
    })
    return id
  }
  const unsubscribe = (client: Client, p: { topic?: unknown; id?: unknown }) => {
    if (typeof p.id === 'string') client.subs.delete(p.id)
    else for (const [id, t] of client.subs) if (t === p.topic) client.subs.delete(id)
  }
  const fetchMessages = (client: Client, topic: unknown) => {
    if (typeof topic !== 'string') throw new Error('topic is required')
    const out = live(topic).filter((m) => m.from !== client.id && !seen(client.id).has(m.hash))
    for (const m of out) seen(client.id).add(m.hash)
    return out.map((m) => ({ topic: m.topic, message: m.message, publishedAt: m.publishedAt, tag: m.tag, ...(m.attestation ? { attestation: m.attestation } : {}) }))
  }

  const handle = (client: Client, method: string, params: any): unknown => {
    switch (method) {
      case 'irn_subscribe':
        return subscribe(client, params?.topic)
      case 'irn_batchSubscribe':
        return (Array.isArray(params?.topics) ? params.topics : []).map((t: unknown) => subscribe(client, t))
      case 'irn_unsubscribe':
        unsubscribe(client, params ?? {})
        return true
      case 'irn_batchUnsubscribe':
        for (const s of Array.isArray(params?.subscriptions) ? params.subscriptions : []) unsubscribe(client, s ?? {})
        return true
      case 'irn_publish':
        publish(client, params ?? {})
        return true
      case 'irn_batchPublish':
        for (const m of Array.isArray(params?.messages) ? params.messages : []) publish(client, m ?? {})
        return true
      case 'irn_fetchMessages':
        return { messages: fetchMessages(client, params?.topic), hasMore: false }
      case 'irn_batchFetchMessages':
        return { messages: (Array.isArray(params?.topics) ? params.topics : []).flatMap((t: unknown) => fetchMessages(client, t)), hasMore: false }
      case 'wc_proposeSession':
        // The proposer does not subscribe the pairing topic itself: the relay does.
        subscribe(client, params?.pairingTopic)
        publish(client, { topic: params?.pairingTopic, message: params?.sessionProposal, ttl: params?.ttl ?? DEFAULT_TTL_S, tag: 1100, attestation: params?.attestation })
        return true
      case 'wc_approveSession':
        // Likewise the approver's session topic.
        subscribe(client, params?.sessionTopic)
        publish(client, { topic: params?.pairingTopic, message: params?.sessionProposalResponse, ttl: DEFAULT_TTL_S, tag: 1101 })
        publish(client, { topic: params?.sessionTopic, message: params?.sessionSettlementRequest, ttl: DEFAULT_TTL_S, tag: 1102 })
        return true
      default:
        throw Object.assign(new Error(`Method not found: ${method}`), { rpcCode: -32601 })
    }
  }

  wss.on('connection', (socket, req) => {
    const client: Client = { id: clientIdOf(req.url) ?? `anonymous:${rpcId()}`, socket, subs: new Map() }
    clients.add(client)
    socket.on('close', () => {
      clients.delete(client)
      // Deliveries this connection never acknowledged go out again on its next subscribe.
      for (const [id, p] of pending) if (p.clientId === client.id && ![...clients].some((c) => c.id === client.id)) pending.delete(id)
    })
    socket.on('error', () => {})
    socket.on('message', (raw) => {
      let msg: any
      try {
        msg = JSON.parse(String(raw))
      } catch {
        send(client, { id: null, jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } })
        return
      }
      if (msg && typeof msg.method !== 'string' && msg.id !== undefined) {
        // A response: the client's acknowledgement of an irn_subscription.
        const p = pending.get(Number(msg.id))
        if (p && msg.result !== undefined && !msg.error) {
          pending.delete(Number(msg.id))
          seen(p.clientId).add(p.hash)
        }
        return
      }
      if (!msg || typeof msg.method !== 'string') {
        send(client, { id: msg?.id ?? null, jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' } })
        return
      }
      options.onRequest?.(msg.method, msg.params, client.id)
      try {
        const result = handle(client, msg.method, msg.params)
        send(client, { id: msg.id, jsonrpc: '2.0', result })
      } catch (e) {
        const code = (e as { rpcCode?: number }).rpcCode ?? -32602
        send(client, { id: msg.id, jsonrpc: '2.0', error: { code, message: (e as Error).message } })
      }
    })
  })

  return {
    url: `ws://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    kept: (topic) => (topic ? live(topic) : [...messages.keys()].flatMap((t) => live(t))),
    subscriptions: () => [...clients].flatMap((c) => [...c.subs].map(([id, topic]) => ({ clientId: c.id, topic, id }))),
    unacknowledged: () => pending.size,
    dropConnections() {
      for (const c of clients) c.socket.terminate()
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of clients) c.socket.terminate()
        wss.close(() => resolve())
      }),
  }
}
